// The whole configuration is checked before anything starts: the real process, started as operators
// start it, exits non-zero at once with one line naming the variable, its value and what is allowed.
import { spawn } from 'node:child_process'
import t from 'tap'
import { startRedis } from '../../test/support/servers.ts'
import { compiledEntry, UNUSED_INDEXED_SOURCE as INDEXED_SOURCE } from '../../test/support/service-process.ts'

// the production entry, compiled: `node dist/services/main.js`
const { args: MAIN, cwd: ROOT } = compiledEntry()

async function start(env: Record<string, string>, roles: string[] = []) {
  const startedAt = performance.now()
  const child = spawn(process.execPath, [...MAIN, ...roles], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ONBOARDING_ENABLED: 'false', ...env },
  })
  let output = ''
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
  const timer = setTimeout(() => child.kill('SIGKILL'), 20_000)
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve))
  clearTimeout(timer)
  const lines = output.split('\n').filter((line) => line.trim() !== '')
  return { code, elapsedMs: performance.now() - startedAt, lines, output }
}

const badValues: Array<[string, string, string]> = [
  ['PORT', 'abc', 'must be a whole number from 0 to 65535'],
  ['PORT', '70000', 'must be a whole number from 0 to 65535'],
  ['STREAM_MAX_CONNECTIONS', '-5', 'must be a whole number, at least 1'],
  ['STALE_AFTER_MS', 'soon', 'must be a whole number, at least 1'],
  ['FEED_SOURCE', 'kafka', 'Invalid option: expected one of "simulator"|"hermes"|"replay"'],
  ['TRUSTED_PROXIES', 'not-an-ip', 'must be a comma-separated list of IP addresses or CIDR ranges (e.g. 10.0.0.0/8,192.168.1.5)'],
  ['BODY_LIMIT_BYTES', '0', 'must be a whole number from 1 to 16777216'],
  ['HOST', '999.1.1.1', 'must be an IP address (e.g. 0.0.0.0, ::, 127.0.0.1) or localhost'],
  ['OPS_PORT', '-1', 'must be a whole number from 0 to 65535'],
  ['OPS_ROUTES_ON_PUBLIC_PORT', 'yes', 'Invalid option: expected one of "0"|"1"|"true"|"false"'],
]

for (const [variable, value, allowed] of badValues) {
  t.test(`${variable}=${value} stops the start at once, naming it`, async (t) => {
    const run = await start({ [variable]: value })
    t.equal(run.code, 1, 'exit code')
    // nothing started before the refusal: its one line is all the process wrote (how long node and tsx took
    // to get there is the machine's, so it is reported, not asserted)
    t.equal(run.lines.length, 1, `one line:\n${run.output}`)
    t.comment(`exited in ${Math.round(run.elapsedMs)} ms`)
    const record = JSON.parse(run.lines[0]!)
    t.equal(record.level, 60)
    t.match(record.msg, `${variable}=${JSON.stringify(value)}: ${allowed}`)
  })
}

t.test('every wrong value is named in the one line, whichever role it belongs to', async (t) => {
  const run = await start({ PORT: 'abc', FEED_SOURCE: 'kafka', CANDLES_FLUSH_INTERVAL_MS: 'often' })
  t.equal(run.code, 1)
  t.equal(run.lines.length, 1)
  const { msg } = JSON.parse(run.lines[0]!)
  for (const variable of ['PORT="abc"', 'FEED_SOURCE="kafka"', 'CANDLES_FLUSH_INTERVAL_MS="often"']) t.match(msg, variable)
})

t.test('onboarding without chains is refused before anything starts', async (t) => {
  const run = await start({ ONBOARDING_ENABLED: 'true' })
  t.equal(run.code, 1)
  t.equal(run.lines.length, 1)
  t.match(JSON.parse(run.lines[0]!).msg, 'no chain configured (set CHAIN_<id>_* or DEPLOYMENT_FILE, or ONBOARDING_ENABLED=false)')
})

t.test('an edge without an indexed source is refused: the production entry starts no stand-in', async (t) => {
  const run = await start({}, ['edge'])
  t.equal(run.code, 1)
  t.equal(run.lines.length, 1, `one line:\n${run.output}`)
  t.equal(
    JSON.parse(run.lines[0]!).msg,
    'invalid configuration for indexer: no indexed source configured (set INDEXER_URL_42161 and INDEXER_URL_421614)',
  )
})

t.test('a URL value with credentials is named with them masked', async (t) => {
  const run = await start({ INDEXER_URL_42161: 'https://user:hunter22@indexer.example/api/AbCdEf1234567890XyZ_abcdef12' })
  t.equal(run.code, 1)
  t.notMatch(run.output, 'hunter22')
  t.notMatch(run.output, 'AbCdEf1234567890XyZ_abcdef12')
  t.match(JSON.parse(run.lines[0]!).msg, 'INDEXER_URL_421614 is not set: set INDEXER_URL_42161 and INDEXER_URL_421614 together')
})

t.test('an unreachable NATS_URL fails the start, naming the variable and not the password', async (t) => {
  const run = await start({ ...INDEXED_SOURCE, NATS_URL: 'nats://alice:hunter22@127.0.0.1:1' }, ['edge'])
  t.equal(run.code, 1)
  t.notMatch(run.output, 'hunter22')
  const fatal = run.lines.map((line) => JSON.parse(line)).find((record) => record.level === 60)
  t.equal(fatal.msg, 'NATS_URL="nats://***@127.0.0.1:1": cannot connect (connection refused)')
})

t.test('an unreachable REDIS_URL fails the start, naming the variable and not the password', async (t) => {
  const run = await start({ ...INDEXED_SOURCE, REDIS_URL: 'redis://:s3cretpw@127.0.0.1:1' }, ['edge'])
  t.equal(run.code, 1)
  t.notMatch(run.output, 's3cretpw')
  const fatal = run.lines.map((line) => JSON.parse(line)).find((record) => record.level === 60)
  t.match(fatal.msg, /^REDIS_URL="redis:\/\/\*\*\*@127\.0\.0\.1:1": cannot connect \(connect ECONNREFUSED 127\.0\.0\.1:1\)$/)
})

t.test('a reachable Redis with a password: the edge starts, and no line carries the password', async (t) => {
  const redis = await startRedis({ password: 'pw-0f3c9a1e' })
  t.teardown(() => redis.dispose())
  const url = `redis://:pw-0f3c9a1e@127.0.0.1:${redis.port}`
  const child = spawn(process.execPath, [...MAIN, 'edge'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      ONBOARDING_ENABLED: 'false',
      PORT: '0',
      REDIS_URL: url,
      ...INDEXED_SOURCE,
    },
  })
  let output = ''
  const listening = new Promise<void>((resolve) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString()
      if (output.includes('"msg":"edge listening"')) resolve()
    }
    child.stdout.on('data', onData)
    child.stderr.on('data', onData)
  })
  const exited = new Promise((resolve) => child.once('exit', resolve))
  await Promise.race([listening, exited])
  child.kill('SIGTERM')
  await exited
  t.match(output, '"msg":"edge listening"')
  t.match(output, '"rateLimits":"redis"')
  t.notMatch(output, 'pw-0f3c9a1e')
})

t.test('the ops listener on the public port stops the start: both listen with SO_REUSEPORT and would share it', async (t) => {
  const run = await start({ PORT: '18080', OPS_PORT: '18080' }, ['edge'])
  t.equal(run.code, 1)
  t.equal(run.lines.length, 1, `one line:\n${run.output}`)
  t.match(JSON.parse(run.lines[0]!).msg, `OPS_PORT="18080": must not be PORT, nor put an edge worker's (OPS_PORT + n) on it`)
})
