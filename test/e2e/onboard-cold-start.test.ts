// Onboarding right after the start: the edge listens while onboarding's chains are still being reached.
// The body's schema needs no chain, so a bad body gets its 400 at once; a well-formed one waits for the chains
// up to ONBOARD_DEADLINE_MS and then gets a 500 saying to retry. The edge runs from the compiled build, its
// chain configured (CHAIN_42161_*) at a node of the test's that takes every request and never answers: the
// start's chain check waits on it (viem gives up on a silent node only after its timeout, 10 s, and three
// retries), and /readyz says onboarding is still starting before and after every answer below.
import t from 'tap'
import { createServer } from 'node:http'
import { readJson, postOnboarding } from '../support/http.ts'
import { listenOnLoopback } from '../support/loopback-http.ts'
import { chainAt, startServiceProcess, UNUSED_INDEXED_SOURCE } from '../support/service-process.ts'
import { START_DEADLINE_MS, waitFor } from '../support/wait.ts'

const READY_WITHIN_MS = 1500

// the chain's node: it reads every request and answers none
let nodeRequests = 0
const node = await listenOnLoopback(createServer(() => nodeRequests++))
const service = startServiceProcess(['edge'], {
  ...UNUSED_INDEXED_SOURCE,
  PORT: '0',
  HOST: '127.0.0.1',
  TRUSTED_PROXIES: '127.0.0.1',
  ONBOARD_DEADLINE_MS: String(READY_WITHIN_MS),
  ...chainAt(node.url),
})
// the node goes first: its requests fail at once, onboarding's start ends, and the process can stop
t.teardown(async () => {
  await node.close()
  await service.stop()
})
const base = `http://127.0.0.1:${Number((await service.waitForLog('edge listening')).port)}`
const ops = `http://127.0.0.1:${Number((await service.waitForLog('ops endpoints listening')).port)}`
/** where onboarding's start is, as /readyz reports it */
const onboardingState = async () => (await readJson(await fetch(`${ops}/readyz`))).details.onboarding
await waitFor(() => nodeRequests > 0, { timeoutMs: START_DEADLINE_MS, what: "the chain's node to be asked" })

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
  t.equal(await onboardingState(), 'starting', "onboarding's start has not ended")
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
  t.equal(await onboardingState(), 'starting')
})
