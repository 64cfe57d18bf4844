// One ingestor, two edge replicas and a relayer, as separate processes on one NATS and one Redis:
// the same snapshot on both replicas, budgets shared through Redis, an onboarding posted to both
// replicas relayed once, and the cluster riding out a NATS restart and a Redis restart.
import t from 'tap'
import { randomUUID } from 'node:crypto'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { maxUint256 } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { writeDeployment } from '../../deploy/devnet/devnet.ts'
import { devnetChain } from '../support/devnet-chain.ts'
import { postOnboarding, readJson } from '../support/http.ts'
import { freePort, startNats, startRedis } from '../support/servers.ts'
import { serviceProcessStarter, UNUSED_INDEXED_SOURCE } from '../support/service-process.ts'
import { waitFor } from '../support/wait.ts'
import { priceRow, rowBytes } from '../support/price-rows.ts'
import { natsPriceBus } from '../../bus/nats-price-bus.ts'
import { PAIRS } from '../../schemas/pairs.ts'
import { devnetForFile } from '../support/shared-devnet.ts'
import { silentLogger } from '../support/silent-logger.ts'

const [nats, redis, devnet] = await Promise.all([startNats(), startRedis(), devnetForFile(import.meta.url, { chainIds: [42161] })])
t.teardown(async () => {
  await devnet.stop()
  await Promise.all([nats.dispose(), redis.dispose()])
})
const deploymentFile = join(mkdtempSync(join(tmpdir(), 'cluster-')), 'deployment.json')
await writeDeployment(devnet, deploymentFile)
const chain = devnetChain(devnet.chain(42161))
t.teardown(chain.close)

const shared = {
  ...UNUSED_INDEXED_SOURCE,
  NATS_URL: nats.url,
  REDIS_URL: redis.url,
  BUS_NAMESPACE: `cluster${randomUUID().slice(0, 8)}`,
  DEPLOYMENT_FILE: deploymentFile,
  STALE_AFTER_MS: '2000',
  OPS_PORT: '0',
  // the test is the proxy: each test names its own client address, so budgets do not spill between tests
  TRUSTED_PROXIES: '127.0.0.1',
}
const start = serviceProcessStarter(t, shared)

const ingestor = start(['ingestor'], { SIM_TICKS_PER_SECOND: '5' })
// a second partner, allowlisted beside the deployment's demo partner
const secondPartner = generatePrivateKey()
const edgePorts = [await freePort(), await freePort()]
// a short deadline, so an onboarding with no relayer running answers 202 instead of waiting
const edges = edgePorts.map((port) =>
  start(['edge'], {
    PORT: String(port),
    HOST: '127.0.0.1',
    ONBOARD_DEADLINE_MS: '1500',
    ONBOARD_ALLOWLIST: privateKeyToAccount(secondPartner).address,
  }),
)
let relayer = start(['relayer'])
await Promise.all([
  ingestor.waitForLog('ingestor started'),
  ...edges.map((edge) => edge.waitForLog('edge listening')),
  relayer.waitForLog('relayer started'),
])
const [urlA, urlB] = edgePorts.map((port) => `http://127.0.0.1:${port}`) as [string, string]
const asClient = (ip: string) => ({ headers: { 'x-forwarded-for': ip } })
// polling both replicas quickly would spend one shared budget within seconds: every poll is another client
let polls = 0
const pollingClient = () => asClient(`10.9.${Math.floor(polls / 250) % 250}.${polls++ % 250}`)
const statusRecord = async (url: string) => readJson(await fetch(`${url}/v1/status`, pollingClient()))
const statusOf = async (url: string) => (await statusRecord(url)).status as string

t.test('both replicas serve the same snapshot', async (t) => {
  // The feed paused, the test publishes one row per pair on the bus itself: every replica must then
  // serve exactly those rows (pairs whose market is closed tick rarely, so the feed alone cannot show it).
  ingestor.child.kill('SIGSTOP')
  t.teardown(() => void ingestor.child.kill('SIGCONT'))
  const publisher = await natsPriceBus({
    servers: nats.url,
    namespace: shared.BUS_NAMESPACE,
    name: 'cluster-test',
    // numbered after the ingestor's ticks, as a successor ingestor would be: a test publisher numbering from
    // zero has lower seqs than the ingestor's rows still in the store, and a replica reading the store between
    // this publish and its write to the store rightly keeps the ingestor's higher-numbered row
    publishes: true,
    logger: silentLogger(),
  })
  t.teardown(() => publisher.close())
  const published = PAIRS.map((pair, index) => priceRow(pair.symbol, { mid: 1000 + index, bid: 999 + index, ask: 1001 + index }))
  for (const row of published) publisher.publishTick(row.pair, rowBytes(row))
  await publisher.flush()
  const expected = JSON.stringify(published.map((row) => JSON.parse(JSON.stringify(row))))
  const same = await waitFor(
    async () => {
      const [a, b] = await Promise.all([urlA, urlB].map(async (url) => (await fetch(`${url}/v1/prices`, pollingClient())).text()))
      const [rowsA, rowsB] = [a, b].map((body) => (body!.startsWith('{"prices"') ? JSON.stringify(JSON.parse(body!).prices) : undefined))
      return rowsA === expected && rowsB === expected ? JSON.parse(rowsA) : undefined
    },
    { timeoutMs: 15_000, what: 'both replicas serving the published rows' },
  )
  t.equal(same.length, 83)
})

t.test('rate-limit budgets are shared through Redis', async (t) => {
  const client = asClient('203.0.113.50')
  const remaining: string[] = []
  for (let n = 0; n < 60; n++)
    remaining.push((await fetch(`${n % 2 ? urlA : urlB}/v1/status`, client)).headers.get('x-ratelimit-remaining')!)
  t.same(
    remaining,
    Array.from({ length: 60 }, (_, n) => String(59 - n)),
    'one budget counted down across both replicas',
  )
  t.equal((await fetch(`${urlA}/v1/status`, client)).status, 429)
  t.equal((await fetch(`${urlB}/v1/status`, client)).status, 429)
})

const signedOnboarding = (privateKey: `0x${string}`) => chain.signBothParts(privateKeyToAccount(privateKey), maxUint256)
const post = (url: string, body: unknown) => postOnboarding(url, body, '198.51.100.20')

/** The terminal outcome a caller reads: the answer's, or, after a 202 (its edge's deadline passed first), by id. */
async function outcomeOf(url: string, answer: Response): Promise<Record<string, unknown>> {
  const body = await readJson(answer)
  if (answer.status !== 202) return body
  return waitFor(
    async () => {
      const read = await fetch(`${url}/v1/onboard/${body.id}`, asClient('198.51.100.20'))
      return read.status === 200 ? readJson(read) : undefined
    },
    { timeoutMs: 60_000, intervalMs: 250, what: `the outcome of ${body.id} on ${url}` },
  )
}

t.test('an onboarding posted to both replicas is relayed exactly once', async (t) => {
  const block = await chain.publicClient.getBlockNumber()
  const body = await signedOnboarding(devnet.demoPartner.privateKey)
  const answers = await Promise.all([post(urlA, body), post(urlB, body)])
  // each answers with the outcome, or with 202 when its 1.5 s deadline passes first, as it can on a busy machine
  t.same(
    answers.map((answer) => answer.status === 200 || answer.status === 202),
    [true, true],
    `200 or 202 (${answers.map((answer) => answer.status).join(', ')})`,
  )
  const [a, b] = await Promise.all([outcomeOf(urlA, answers[0]), outcomeOf(urlB, answers[1])])
  t.equal(a.status, 'confirmed')
  t.same(b, a, 'both callers get the same outcome')
  const operations = await chain.onboardingOperationsAfter(devnet.relayer.smartAccountAddress, block)
  t.equal(operations.length, 1, 'one user operation on chain')
  t.equal(operations[0]!.args.userOpHash, a.userOpHash)
})

t.test('NATS restarted: the edges report degraded, then recover without a process restart', async (t) => {
  await waitFor(async () => (await statusOf(urlA)) === 'ok' && (await statusOf(urlB)) === 'ok', { timeoutMs: 10_000, what: 'ok before' })
  await nats.stop()
  await waitFor(async () => (await statusOf(urlA)) === 'degraded' && (await statusOf(urlB)) === 'degraded', {
    timeoutMs: 10_000,
    what: 'degraded',
  })
  const before = (await statusRecord(urlA)).prices.lastTickAt
  await nats.start()
  await waitFor(async () => (await statusOf(urlA)) === 'ok' && (await statusOf(urlB)) === 'ok', {
    timeoutMs: 20_000,
    what: 'ok after the restart',
  })
  await waitFor(async () => (await statusRecord(urlB)).prices.lastTickAt > before, {
    timeoutMs: 10_000,
    what: 'ticks to flow again through the restarted server',
  })
  t.equal(ingestor.child.exitCode, null, 'no process restarted')
  t.ok(edges.every((edge) => edge.child.exitCode === null))
})

t.test('Redis restarted: a queued onboarding is not lost', async (t) => {
  await relayer.stop()
  const pending = await post(urlA, await signedOnboarding(secondPartner))
  t.equal(pending.status, 202, 'no relayer: the deadline passes and the job stays queued')
  const { id } = await readJson(pending)
  await redis.stop()
  await redis.start()
  relayer = start(['relayer'])
  const outcome = await waitFor(
    async () => {
      const answer = await fetch(`${urlB}/v1/onboard/${id}`, asClient('198.51.100.20'))
      return answer.status === 200 ? readJson(answer) : undefined
    },
    { timeoutMs: 60_000, intervalMs: 250, what: 'the queued onboarding to complete' },
  )
  t.equal(outcome.status, 'confirmed')
})
