// An ingestor, an edge and a relayer as separate processes on one NATS and one Redis. Each role's /readyz
// follows only what the role cannot serve without: Redis down takes the relayer out and leaves the ingestor
// and the edge (which keeps serving prices on memory budgets) in; NATS down takes the ingestor and the edge
// out and leaves the relayer in. Through both outages every line each process writes is a JSON log record,
// and failures that repeat are logged once per window with a count.
import t from 'tap'
import { randomUUID } from 'node:crypto'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { writeDeployment } from '../../deploy/devnet/devnet.ts'
import { readJson } from '../support/http.ts'
import { freePort, startNats, startRedis } from '../support/servers.ts'
import { serviceProcessStarter, UNUSED_INDEXED_SOURCE } from '../support/service-process.ts'
import { waitFor } from '../support/wait.ts'
import { devnetForFile } from '../support/shared-devnet.ts'

const [nats, redis, devnet] = await Promise.all([startNats(), startRedis(), devnetForFile(import.meta.url, { chainIds: [42161] })])
t.teardown(async () => {
  await devnet.stop()
  await Promise.all([nats.dispose(), redis.dispose()])
})
const deploymentFile = join(mkdtempSync(join(tmpdir(), 'readiness-')), 'deployment.json')
await writeDeployment(devnet, deploymentFile)

const shared = {
  ...UNUSED_INDEXED_SOURCE,
  NATS_URL: nats.url,
  REDIS_URL: redis.url,
  BUS_NAMESPACE: `ready${randomUUID().slice(0, 8)}`,
  DEPLOYMENT_FILE: deploymentFile,
  HOST: '127.0.0.1',
  OPS_PORT: '0',
  SIM_TICKS_PER_SECOND: '50',
}
const start = serviceProcessStarter(t, shared)

const edgePort = await freePort()
const [ingestor, edge, relayer] = [start(['ingestor']), start(['edge'], { PORT: String(edgePort) }), start(['relayer'])]
const [ingestorOps, edgeOps, relayerOps] = await Promise.all([
  ingestor.waitForLog('ops endpoints listening', 90_000),
  edge.waitForLog('ops endpoints listening', 90_000),
  relayer.waitForLog('ops endpoints listening', 90_000),
  edge.waitForLog('edge listening', 90_000),
])
const urls = {
  ingestor: `http://127.0.0.1:${Number(ingestorOps.port)}`,
  edge: `http://127.0.0.1:${Number(edgeOps.port)}`,
  relayer: `http://127.0.0.1:${Number(relayerOps.port)}`,
}
const edgeUrl = `http://127.0.0.1:${edgePort}`
type RoleName = keyof typeof urls
const readiness = async (role: RoleName) => {
  const response = await fetch(`${urls[role]}/readyz`)
  return { status: response.status, body: await readJson(response) }
}
const allReadiness = async () => ({
  ingestor: await readiness('ingestor'),
  edge: await readiness('edge'),
  relayer: await readiness('relayer'),
})
// the edge and the relayer also report where onboarding's start is (informing, not deciding): its chain is up here
const onboardingUp = { details: { onboarding: 'ready' } }
const ready = (checks: Record<string, boolean>, details = {}) => ({ status: 200, body: { ready: true, checks, ...details } })
const notReady = (checks: Record<string, boolean>, details = {}) => ({ status: 503, body: { ready: false, checks, ...details } })
const settlesTo = async (expected: Record<RoleName, unknown>, what: string) => {
  await waitFor(async () => JSON.stringify(await allReadiness()) === JSON.stringify(expected), {
    timeoutMs: 20_000,
    intervalMs: 100,
    what,
  }).catch(() => undefined)
  return allReadiness()
}

// An outage lasts this long (the scenario, not a wait for anything): long enough for ioredis and nats.js to
// retry several times and for the ingestor's latest-row writes to fail on several timer turns.
const OUTAGE_MS = 5000
const outageElapses = () => new Promise((resolve) => setTimeout(resolve, OUTAGE_MS))

const allUp = {
  ingestor: ready({ bus: true }),
  edge: ready({ bus: true, routes: true }, onboardingUp),
  relayer: ready({ redis: true }, onboardingUp),
}

t.test("every role's ops server listens on HOST; the edge answers 404 for its routes on the public port", async (t) => {
  t.equal(ingestorOps.host, '127.0.0.1')
  t.equal(edgeOps.host, '127.0.0.1')
  t.equal(relayerOps.host, '127.0.0.1')
  t.equal((await fetch(`${edgeUrl}/readyz`)).status, 404)
})

t.test('each role checks only what it cannot serve without', async (t) => {
  t.same(await settlesTo(allUp, 'every role ready'), allUp)
})

t.test('Redis down: the relayer is out, the ingestor and the edge stay in and prices are served', async (t) => {
  await redis.stop()
  const during = { ...allUp, relayer: notReady({ redis: false }, onboardingUp) }
  t.same(await settlesTo(during, 'the relayer out'), during)
  const prices = await fetch(`${edgeUrl}/v1/prices`)
  t.equal(prices.status, 200, 'the edge serves the snapshot')
  t.equal((await readJson(prices)).prices.length, 83)
  t.equal(prices.headers.get('x-ratelimit-limit'), '100', 'its budget now counted in memory')
  await outageElapses()
  t.same(await allReadiness(), during, 'the same all through the outage')
  await redis.start()
  t.same(await settlesTo(allUp, 'every role ready again'), allUp)
})

t.test('NATS down: the ingestor and the edge are out, the relayer stays in', async (t) => {
  await nats.stop()
  const during = {
    ingestor: notReady({ bus: false }),
    edge: notReady({ bus: false, routes: true }, onboardingUp),
    relayer: ready({ redis: true }, onboardingUp),
  }
  t.same(await settlesTo(during, 'the bus users out'), during)
  await outageElapses()
  t.same(await allReadiness(), during, 'the same all through the outage')
  await nats.start()
  t.same(await settlesTo(allUp, 'every role ready again'), allUp)
})

t.test('through both outages every line is a JSON record, and repeated failures are throttled', async (t) => {
  for (const [name, service] of Object.entries({ ingestor, edge, relayer })) {
    const notJson = service.logs.filter((line) => {
      try {
        return typeof JSON.parse(line) !== 'object'
      } catch {
        return true
      }
    })
    t.same(notJson, [], `${name}: no line that is not JSON`)
    const records = service.logs.map((line) => JSON.parse(line) as { msg: string; level: number })
    const warnings = new Map<string, number>()
    for (const record of records.filter((record) => record.level >= 40)) warnings.set(record.msg, (warnings.get(record.msg) ?? 0) + 1)
    // each outage lasts about half the 10 s window of the throttled warnings: a few lines of each at most
    const repeated = [...warnings].filter(([, count]) => count > 4)
    t.same(repeated, [], `${name}: no warning repeated more than 4 times (${JSON.stringify([...warnings])})`)
  }
})
