// Onboarding right after the start: the edge listens while onboarding's chains are still being started.
// The body's schema needs no chain, so a bad body gets its 400 at once; a well-formed one waits for the chains
// up to ONBOARD_DEADLINE_MS and then gets a 500 saying to retry. The chain starter here never finishes
// until the test releases it, so every answer below came while the chains were not there.
import t from 'tap'
import { runRoles } from '../../services/run-roles.ts'
import { readJson, postOnboarding } from '../support/http.ts'
import { freePort } from '../support/servers.ts'
import { silentLogger } from '../support/silent-logger.ts'
import { START_DEADLINE_MS, waitFor, withDeadline } from '../support/wait.ts'

const READY_WITHIN_MS = 1500

let starterCalled = false
let releaseStarter!: (error: Error) => void
const chainsNeverReady = new Promise<never>((_, reject) => (releaseStarter = reject))

const port = await freePort()
const base = `http://127.0.0.1:${port}`
const starting = runRoles(
  {
    ROLES: 'edge',
    PORT: String(port),
    HOST: '127.0.0.1',
    TRUSTED_PROXIES: '127.0.0.1',
    ONBOARD_DEADLINE_MS: String(READY_WITHIN_MS),
    // never asked in this file: reads are not tested here
    INDEXER_URL_42161: 'http://127.0.0.1:9/42161',
    INDEXER_URL_421614: 'http://127.0.0.1:9/421614',
  },
  silentLogger(),
  {
    startEmbeddedChains: () => {
      starterCalled = true
      return chainsNeverReady
    },
  },
)
// runRoles resolves only once onboarding's start has ended (here: failed)
let startEnded = false
void starting.finally(() => (startEnded = true)).catch(() => undefined)
// the start ends (onboarding unavailable, prices go on) once the starter fails; then the roles stop
t.teardown(async () => {
  releaseStarter(new Error('released by the test'))
  await (await withDeadline(starting, START_DEADLINE_MS, 'the start to end')).stop()
})
await waitFor(async () => (await fetch(`${base}/v1/status`).catch(() => undefined))?.status === 200, {
  timeoutMs: START_DEADLINE_MS,
  what: 'the edge to listen',
})
await waitFor(() => starterCalled, { timeoutMs: START_DEADLINE_MS, what: 'the chain starter to be called' })

const wellFormed = {
  chainId: 42161,
  partner: '0x1111111111111111111111111111111111111111',
  delegation: {
    delegate: '0x2222222222222222222222222222222222222222',
    nonce: '0',
    expiry: '1900000000',
    signature: `0x${'ab'.repeat(65)}`,
  },
}

t.test('a body that fails the schema gets its 400 while the chains are still starting', async (t) => {
  const sentAt = performance.now()
  const response = await postOnboarding(base, { chainId: 1, partner: 'nobody' }, '198.51.100.1')
  t.comment(`400 after ${(performance.now() - sentAt).toFixed(1)} ms`)
  t.equal(startEnded, false, "onboarding's start has not ended")
  t.equal(response.status, 400)
  const body = await readJson(response)
  t.same(Object.keys(body).sort(), ['error', 'issues', 'message'])
  t.equal(body.error, 'Bad Request')
  t.equal(body.message, 'invalid onboarding request')
  t.same(
    body.issues.map((issue: { path: unknown[] }) => issue.path),
    [['chainId'], ['partner']],
  )
})

t.test('a body that is not JSON gets its 400 while the chains are still starting', async (t) => {
  const response = await postOnboarding(base, '{"chainId": 42161,', '198.51.100.2')
  t.equal(response.status, 400)
  t.same(await readJson(response), {
    error: 'Bad Request',
    message: 'invalid onboarding request',
    issues: [{ code: 'custom', path: [], message: 'the body must be JSON' }],
  })
})

t.test('a well-formed body waits for the chains up to the deadline, then gets a 500 saying to retry', async (t) => {
  const sentAt = performance.now()
  const response = await postOnboarding(base, wellFormed, '198.51.100.3')
  const waitedMs = performance.now() - sentAt
  t.equal(response.status, 500)
  t.same(await readJson(response), {
    error: 'Internal Server Error',
    message: `onboarding is still starting (its chains are not ready after ${READY_WITHIN_MS} ms); retry shortly`,
  })
  t.ok(waitedMs >= READY_WITHIN_MS - 50, `answered after the deadline (${waitedMs.toFixed(0)} ms)`)
  t.ok(response.headers.get('x-request-id'), 'with its request id')
})

t.test('an onboarding looked up by id meanwhile gets the same 500', async (t) => {
  const response = await fetch(`${base}/v1/onboard/0x${'cd'.repeat(32)}`, { headers: { 'x-forwarded-for': '198.51.100.4' } })
  t.equal(response.status, 500)
  t.match(await readJson(response), { error: 'Internal Server Error', message: /^onboarding is still starting/ })
})

t.test("onboarding's start still has not ended", async (t) => {
  t.equal(startEnded, false)
})
