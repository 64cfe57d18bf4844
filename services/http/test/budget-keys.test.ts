// Per-IP budgets count per budget key: an IPv4 address, or an IPv6 /64 (BUDGET_IPV6_PREFIX), always in
// canonical form. Checked on the edge's real GET /v1/status (60 per 10 s) through a trusted proxy, and on
// direct sockets from real IPv6 peers: a network namespace joined to this one by a veth pair, whose
// clients take their source addresses from a whole /64 (a local route to it, and non-local binds).
import { execFile, execFileSync } from 'node:child_process'
import { promisify } from 'node:util'
import t, { type Test } from 'tap'
import { startTestEdge } from '../../../test/support/edge-harness.ts'
import { rawUpgrade, type UpgradeResult } from '../../../test/support/raw-ws.ts'
import { edgeConfig } from '../../edge/config.ts'
import { budgetKeyer, canonicalIp } from '../budget-keys.ts'
import { START_DEADLINE_MS } from '../../../test/support/wait.ts'

const run = promisify(execFile)

t.test('the key: canonical IPv4, IPv4-mapped IPv6 as IPv4, IPv6 by its prefix', async (t) => {
  const keyOf = budgetKeyer()
  t.equal(keyOf('2001:0db8:0001:0004:0000:0000:0000:0001'), '2001:db8:1:4::/64')
  t.equal(keyOf('2001:DB8:1:4:FFFF:1:2:3'), '2001:db8:1:4::/64', 'any address of the /64')
  t.equal(keyOf('2001:db8:1:5::1'), '2001:db8:1:5::/64', 'the next /64 is another key')
  for (const spelling of [
    '192.0.2.7',
    '::ffff:192.0.2.7',
    '::FFFF:c000:207',
    '0:0:0:0:0:ffff:192.0.2.7',
    '0000:0000:0000:0000:0000:ffff:c000:0207',
  ]) {
    t.equal(keyOf(spelling), '192.0.2.7', spelling)
  }
  t.equal(budgetKeyer(56)('2001:db8:1:4ff::1'), '2001:db8:1:400::/56')
  t.equal(budgetKeyer(128)('2001:0db8::0001'), '2001:db8::1', 'a /128 is the address itself')
  t.equal(keyOf('fe80::1%eth0'), 'fe80::/64', 'the zone is not part of the key')
  t.equal(keyOf('not an address'), 'not an address', 'a peer uWS could not name is its own key')
  t.equal(canonicalIp('2001:0DB8:0:0:1:0:0:1'), '2001:db8::1:0:0:1', 'RFC 5952: the first longest zero run')
  t.throws(() => budgetKeyer(0), /1 to 128 bits, not 0/)
})

t.test('BUDGET_IPV6_PREFIX: 64 by default, 32 to 128', async (t) => {
  t.equal(edgeConfig({}).BUDGET_IPV6_PREFIX, 64)
  t.equal(edgeConfig({ BUDGET_IPV6_PREFIX: '56' }).BUDGET_IPV6_PREFIX, 56)
  t.throws(() => edgeConfig({ BUDGET_IPV6_PREFIX: '16' }), /BUDGET_IPV6_PREFIX="16": must be a whole number from 32 to 128/)
  t.throws(() => edgeConfig({ BUDGET_IPV6_PREFIX: '/64' }), /BUDGET_IPV6_PREFIX/)
})

interface Answer {
  status: number
  limit?: string
  remaining?: string
  retryAfter?: string
}

/** What the answers came to: statuses counted, and the budget headers of every 429. */
function tally(answers: Answer[]) {
  const refusals = answers.filter((answer) => answer.status === 429)
  return {
    ok: answers.filter((answer) => answer.status === 200).length,
    limited: refusals.length,
    refusalHeaders: new Set(
      refusals.map(({ limit, remaining, retryAfter }) => `${limit} ${remaining} ${retryAfter === undefined ? 'none' : 'given'}`),
    ),
  }
}

/** one budget of 60 spent by 80 requests: 60 answers of 200, 20 of 429 with the budget's headers and retry-after */
const SPENT = { ok: 60, limited: 20, refusalHeaders: new Set(['60 0 given']) }

/** 80 spellings of 2001:db8:1:4::1: padded groups, upper case, with and without `::` */
function spellingsOfOneAddress(): string[] {
  const spellings: string[] = []
  for (let choice = 0; spellings.length < 80; choice++) {
    const bit = (n: number) => (choice >> n) & 1
    const second = (bit(0) ? '0db8' : 'db8')[bit(1) ? 'toUpperCase' : 'toLowerCase']()
    const third = bit(2) ? '0001' : '1'
    const fourth = bit(3) ? '004' : '4'
    const zeros = bit(4) ? '::' : ':0:0:0:'
    const last = '1'.padStart(1 + ((choice >> 5) & 3), '0')
    spellings.push(`2001:${second}:${third}:${fourth}${zeros}${last}`)
  }
  return spellings
}

t.test('through a trusted proxy', async (t) => {
  const edge = await startTestEdge({ env: { TRUSTED_PROXIES: '127.0.0.1', STREAM_MAX_CONNECTIONS_PER_IP: '2' } })
  t.teardown(edge.stop)
  const status = async (clientIp: string): Promise<Answer> => {
    const response = await fetch(`${edge.baseUrl}/v1/status`, { headers: { 'x-forwarded-for': clientIp } })
    await response.arrayBuffer()
    const header = (name: string) => response.headers.get(name) ?? undefined
    return {
      status: response.status,
      limit: header('x-ratelimit-limit'),
      remaining: header('x-ratelimit-remaining'),
      retryAfter: header('retry-after'),
    }
  }
  const from = (addresses: string[]) => Promise.all(addresses.map(status))

  t.test('80 addresses of one /64 share one budget: 60 answers of 200, 20 of 429', async (t) => {
    const addresses = Array.from({ length: 80 }, (_, index) => `2001:db8:10:4:${(index * 0x1f3).toString(16)}::${(index + 1).toString(16)}`)
    t.equal(new Set(addresses).size, 80)
    t.same(tally(await from(addresses)), SPENT)
    t.equal((await status('2001:db8:10:5::1')).status, 200, 'the next /64 has its own budget')
  })

  t.test('80 spellings of one address share one budget: 60 answers of 200, 20 of 429', async (t) => {
    const spellings = spellingsOfOneAddress()
    t.equal(new Set(spellings).size, 80)
    t.same(new Set(spellings.map((spelling) => canonicalIp(spelling))), new Set(['2001:db8:1:4::1']))
    t.same(tally(await from(spellings)), SPENT)
  })

  t.test('IPv4 and IPv4-mapped IPv6 spellings of one address share one budget', async (t) => {
    const answers = []
    for (const spelling of ['192.0.2.9', '::ffff:192.0.2.9', '::FFFF:C000:0209', '0:0:0:0:0:ffff:192.0.2.9'])
      answers.push(await status(spelling))
    t.same(
      answers.map((answer) => [answer.status, answer.remaining]),
      [
        [200, '59'],
        [200, '58'],
        [200, '57'],
        [200, '56'],
      ],
    )
  })

  t.test('the stream: connections per IP are counted per /64', async (t) => {
    const opened: UpgradeResult[] = []
    t.teardown(() => opened.forEach((result) => result.socket.destroy()))
    const upgrade = async (clientIp: string) => {
      const result = await rawUpgrade(edge.streamUrl, { 'X-Forwarded-For': clientIp })
      opened.push(result)
      return result
    }
    t.equal((await upgrade('2001:db8:20:4::1')).status, 101)
    t.equal((await upgrade('2001:0DB8:0020:0004:ffff::2')).status, 101)
    const refused = await upgrade('2001:db8:20:4:1:2:3:4')
    t.equal(refused.status, 429)
    t.same(JSON.parse(refused.rest.toString()), {
      error: 'Too Many Requests',
      message: 'too many open stream connections from this address (2): retry in 5 seconds',
      details: { limit: { connectionsPerIp: 2 }, retryAfterSeconds: 5 },
    })
    t.equal((await upgrade('2001:db8:20:5::1')).status, 101, 'another /64 is not affected')
  })
})

t.test('on direct sockets from 80 real IPv6 peers of one /64', async (t) => {
  const peers = await ipv6PeerNamespace(t)
  const edge = await startTestEdge({ env: { HOST: peers.serverAddress } })
  t.teardown(edge.stop)
  const port = Number(new URL(edge.baseUrl).port)
  const sources = Array.from(
    { length: 80 },
    (_, index) => `${peers.clientPrefix}:${(index * 0x2b).toString(16)}::${(index + 1).toString(16)}`,
  )
  const { stdout } = await run(
    'ip',
    [
      'netns',
      'exec',
      peers.namespace,
      process.execPath,
      '--input-type=module',
      '-e',
      STATUS_FROM_SOURCES,
      peers.serverAddress,
      String(port),
      ...sources,
    ],
    // a node process started and 80 requests: a start (START_DEADLINE_MS)
    { timeout: START_DEADLINE_MS },
  )
  const answers = JSON.parse(stdout) as Array<Answer & { source: string }>
  t.same(
    answers.map((answer) => answer.source),
    sources.map((source) => canonicalIp(source)),
    'every request came from its own address',
  )
  t.same(tally(answers), SPENT)
})

/**
 * Run in the namespace: GET /v1/status once from each source address (argv: server, port, sources...),
 * all at once; prints what each got and the address the socket really had.
 */
const STATUS_FROM_SOURCES = `
import { request } from 'node:http'
const [host, port, ...sources] = process.argv.slice(1)
const get = (localAddress) => new Promise((resolve, reject) => {
  const req = request({ host, port: Number(port), path: '/v1/status', localAddress, family: 6, agent: false }, (res) => {
    res.resume()
    res.on('end', () => resolve({
      source: req.socket.localAddress,
      status: res.statusCode,
      limit: res.headers['x-ratelimit-limit'],
      remaining: res.headers['x-ratelimit-remaining'],
      retryAfter: res.headers['retry-after'],
    }))
  })
  req.on('error', reject)
  req.end()
})
process.stdout.write(JSON.stringify(await Promise.all(sources.map(get))))
`

/**
 * A network namespace joined to this one by a veth pair: the server listens on this side's address, and
 * clients in the namespace may bind any address of `clientPrefix`::/64 (routed here through the pair).
 * Removed in teardown, and at once if building it fails.
 */
async function ipv6PeerNamespace(t: Test) {
  const tag = (process.pid % 100_000).toString(16)
  const namespace = `vgp-keys-${tag}`
  const hostSide = `vgph${tag}`
  const link = `fd76:6770:${tag}`
  const clientPrefix = `2001:db8:${tag}:4`
  const ip = (...args: string[]) => execFileSync('ip', args, { stdio: ['ignore', 'ignore', 'pipe'] })
  const inside = (...args: string[]) => ip('-n', namespace, ...args)
  t.teardown(() => {
    // deleting the namespace deletes its end of the pair, and so the pair and the route through it
    for (const args of [
      ['netns', 'delete', namespace],
      ['link', 'delete', hostSide],
    ]) {
      try {
        ip(...args)
      } catch {
        // not made (setup failed first), or gone with the namespace
      }
    }
  })
  ip('netns', 'add', namespace)
  ip('link', 'add', hostSide, 'type', 'veth', 'peer', 'name', `vgpn${tag}`)
  ip('link', 'set', `vgpn${tag}`, 'netns', namespace)
  ip('addr', 'add', `${link}::1/64`, 'dev', hostSide, 'nodad')
  ip('link', 'set', hostSide, 'up')
  ip('-6', 'route', 'add', `${clientPrefix}::/64`, 'via', `${link}::2`, 'dev', hostSide)
  inside('link', 'set', 'lo', 'up')
  inside('addr', 'add', `${link}::2/64`, 'dev', `vgpn${tag}`, 'nodad')
  inside('link', 'set', `vgpn${tag}`, 'up')
  // the whole /64 is local in the namespace, and its sockets may bind addresses not on an interface
  inside('-6', 'route', 'add', 'local', `${clientPrefix}::/64`, 'dev', 'lo')
  ip('netns', 'exec', namespace, 'sysctl', '-qw', 'net.ipv6.ip_nonlocal_bind=1')
  return { namespace, serverAddress: `${link}::1`, clientPrefix }
}
