import t from 'tap'
import WebSocket from 'ws'
import { seededRandom } from '../../../kit/seeded-random.ts'
import { startTestEdge } from '../../../test/support/edge-harness.ts'
import { metricValue } from '../../../test/support/metrics.ts'
import { rawUpgrade } from '../../../test/support/raw-ws.ts'
import { EVENT_DEADLINE_MS, withDeadline } from '../../../test/support/wait.ts'
import { errorResponse } from '../../http/error-response.ts'
import { UpgradeAdmission } from '../upgrade-admission.ts'

/** An admission whose clock the test moves. */
function admissionAt(options: { perSecond: number; burst: number; maxRetrySeconds: number; seed?: number }) {
  const clock = { ms: 0 }
  const admission = new UpgradeAdmission({ ...options, random: seededRandom(options.seed ?? 1), now: () => clock.ms })
  return { admission, clock }
}

t.test('a burst is admitted at once, then the rate; a refusal is the spec 8 503 with Retry-After', async (t) => {
  const { admission, clock } = admissionAt({ perSecond: 10, burst: 3, maxRetrySeconds: 30 })
  t.same([admission.refusal(), admission.refusal(), admission.refusal()], [undefined, undefined, undefined], 'the burst')
  const refusal = admission.refusal()!
  const answer = errorResponse(refusal)
  t.equal(answer.status, 503)
  t.same(answer.headers, { 'retry-after': String(refusal.retryAfterSeconds) })
  t.same(answer.body, {
    error: 'Service Unavailable',
    message: `this replica admits 10 stream upgrades per second: retry in ${refusal.retryAfterSeconds} seconds`,
    details: { retryAfterSeconds: refusal.retryAfterSeconds, limit: { upgradesPerSecond: 10 } },
  })
  clock.ms += 100
  t.equal(admission.refusal(), undefined, 'a tenth of a second later: one more place at 10 per second')
  t.ok(admission.refusal(), 'and no second one')
})

t.test('Retry-After: whole seconds from 1 up to a window that grows with the crowd refused, never above the cap', async (t) => {
  const { admission } = admissionAt({ perSecond: 100, burst: 1, maxRetrySeconds: 20, seed: 5 })
  admission.refusal()
  const waits = Array.from({ length: 5_000 }, () => admission.refusal()!.retryAfterSeconds!)
  t.ok(
    waits.every((wait) => Number.isInteger(wait) && wait >= 1 && wait <= 20),
    'every Retry-After within [1, 20]',
  )
  t.same(
    waits.slice(0, 50).filter((wait) => wait > 2),
    [],
    'the first 50 refused (a window of up to 1 s at 100/s, twice over) come back within 2 s',
  )
  const late = waits.slice(4_000)
  t.same([Math.min(...late), Math.max(...late)], [1, 20], 'a crowd of 4,000 at 100/s is spread over the whole capped window')
  const seen = new Set(late)
  t.equal(seen.size, 20, 'every second of the window is used (jitter, not one value)')
  const again = admissionAt({ perSecond: 100, burst: 1, maxRetrySeconds: 20, seed: 5 }).admission
  again.refusal()
  t.same(
    Array.from({ length: 5_000 }, () => again.refusal()!.retryAfterSeconds!),
    waits,
    'repeatable with the same seed',
  )
})

t.test('the edge answers upgrades past the admission rate with 503, Retry-After and the reason counted', async (t) => {
  const edge = await startTestEdge({
    env: { STREAM_UPGRADES_PER_SECOND: '1', STREAM_UPGRADE_BURST: '2', STREAM_UPGRADE_RETRY_MAX_SECONDS: '7' },
    // the admission's clock held still: slow upgrades on a busy machine refill no place
    upgradeClock: () => 0,
  })
  t.teardown(edge.stop)
  const admitted = [await rawUpgrade(edge.streamUrl), await rawUpgrade(edge.streamUrl)]
  t.teardown(() => admitted.forEach((result) => result.socket.destroy()))
  t.same(
    admitted.map((result) => result.status),
    [101, 101],
  )
  const refused = await rawUpgrade(edge.streamUrl)
  refused.socket.destroy()
  t.equal(refused.status, 503)
  const retryAfter = Number(refused.headers['retry-after'])
  t.ok(retryAfter >= 1 && retryAfter <= 7, `Retry-After ${retryAfter} within [1, 7]`)
  t.equal(refused.headers['content-type'], 'application/json')
  t.match(refused.headers['x-request-id'], /^[0-9a-f-]{36}$/)
  t.same(JSON.parse(refused.rest.toString()), {
    error: 'Service Unavailable',
    message: `this replica admits 1 stream upgrades per second: retry in ${retryAfter} seconds`,
    details: { retryAfterSeconds: retryAfter, limit: { upgradesPerSecond: 1 } },
  })
  t.equal(await metricValue(edge.metrics.streamRejectedUpgrades, { reason: 'admission_rate' }), 1)
})

/** An upgrade by the `ws` package, as a Node client sends it: the answer's status and headers, and its body when refused. */
function wsUpgrade(url: string): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  const socket = new WebSocket(url)
  const answered = new Promise<{ status: number; headers: Record<string, string>; body: string }>((resolve, reject) => {
    const headersOf = (response: { headers: Record<string, string | string[] | undefined> }) =>
      Object.fromEntries(Object.entries(response.headers).map(([name, value]) => [name, String(value)]))
    socket.once('upgrade', (response) => {
      resolve({ status: response.statusCode!, headers: headersOf(response), body: '' })
      socket.terminate()
    })
    socket.once('unexpected-response', (_request, response) => {
      const chunks: Buffer[] = []
      response.on('data', (chunk: Buffer) => chunks.push(chunk))
      response.once('end', () => {
        resolve({ status: response.statusCode!, headers: headersOf(response), body: Buffer.concat(chunks).toString() })
        socket.terminate()
      })
    })
    socket.once('error', reject)
  })
  return withDeadline(answered, EVENT_DEADLINE_MS, 'the upgrade to be answered')
}

t.test('a 503 of the admission rate spends none of the per-IP upgrade budget, and says so in its headers', async (t) => {
  const clock = { ms: 0 }
  const edge = await startTestEdge({
    env: {
      STREAM_UPGRADES_PER_SECOND: '1',
      STREAM_UPGRADE_BURST: '1',
      STREAM_UPGRADE_RETRY_MAX_SECONDS: '7',
      STREAM_UPGRADES_PER_IP_PER_MINUTE: '3',
    },
    // the admission's clock in the test's hands: no place frees until the test moves it
    upgradeClock: () => clock.ms,
  })
  t.teardown(edge.stop)
  const first = await wsUpgrade(edge.streamUrl)
  t.same([first.status, first.headers['x-ratelimit-limit'], first.headers['x-ratelimit-remaining']], [101, '3', '2'], 'one point spent')

  // more refusals than the whole budget, all within the second before the next place: none of them a 429
  const refused = await Promise.all(Array.from({ length: 4 }, () => wsUpgrade(edge.streamUrl)))
  t.same(
    refused.map((answer) => [answer.status, answer.headers['x-ratelimit-limit'], answer.headers['x-ratelimit-remaining']]),
    Array.from({ length: 4 }, () => [503, '3', '2']),
    'every 503 leaves the budget where the 101 left it',
  )
  const answer = refused[0]!
  const retryAfter = Number(answer.headers['retry-after'])
  t.ok(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 7, `Retry-After ${retryAfter} within [1, 7]`)
  const reset = Number(answer.headers['x-ratelimit-reset'])
  t.ok(Number.isInteger(reset) && reset >= 1 && reset <= 60, `x-ratelimit-reset ${reset} within the minute's window`)
  t.equal(answer.headers['content-type'], 'application/json')
  t.same(JSON.parse(answer.body), {
    error: 'Service Unavailable',
    message: `this replica admits 1 stream upgrades per second: retry in ${retryAfter} seconds`,
    details: { retryAfterSeconds: retryAfter, limit: { upgradesPerSecond: 1 } },
  })

  // a second later a place frees: the next upgrade is admitted and spends the second point
  clock.ms += 1_000
  const admitted = await wsUpgrade(edge.streamUrl)
  t.equal(admitted.status, 101)
  t.equal(admitted.headers['x-ratelimit-remaining'], '1')
  t.equal(await metricValue(edge.metrics.rateLimited, { budget: 'streamUpgrades' }), 0, 'no upgrade was refused by the budget')
})
