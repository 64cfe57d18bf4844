// One /v1/udf/history answer may read several pages, each of which may ask the history source: the answer as
// a whole has the source's deadline, as a POST /v1/ohlc answer has, not one deadline per page. A source
// that answers each page in a third of the deadline, and never fills a page, shows which holds.

import { setTimeout as sleep } from 'node:timers/promises'
import t from 'tap'
import { readJson } from '../../../../test/support/http.ts'
import { serveRoutes } from '../../../../test/support/route-server.ts'
import { createCandleStore } from '../../create-candle-store.ts'
import type { UpstreamHistory } from '../../history/upstream-history.ts'
import { RESOLUTION_SECONDS } from '../../resolutions.ts'
import { udfRoutes } from '../udf-routes.ts'

const DEADLINE_MS = 900
const PER_CALL_MS = 300
let calls = 0
/** covers every pair; each call takes PER_CALL_MS (or its signal's end) and prepares one empty period */
const slowSource: UpstreamHistory = {
  covers: () => true,
  async prepare(_pair, resolution, range, { signal }) {
    calls++
    // cut off as fetch is: with the signal's reason (a TimeoutError at the deadline)
    await sleep(PER_CALL_MS, undefined, { signal }).catch(() => Promise.reject(signal.reason as Error))
    return { until: range.from + RESOLUTION_SECONDS[resolution], proxied: [] }
  },
}

const store = createCandleStore({ keyPrefix: 'udf-deadline', keepPerResolution: 20_160 })
const server = await serveRoutes(udfRoutes({ store, history: { upstream: slowSource, timeoutMs: DEADLINE_MS } }))
t.teardown(() => server.close())

t.test('an answer that takes several calls to the source ends at one deadline: 504 in the UDF shape', async (t) => {
  const to = Math.floor(Date.now() / 1000)
  const startedAt = Date.now()
  const response = await fetch(`${server.baseUrl}/v1/udf/history?symbol=BTC-USD&resolution=60&from=${to - 86_400}&to=${to}`)
  const elapsedMs = Date.now() - startedAt
  t.equal(response.status, 504)
  t.strictSame(await readJson(response), {
    s: 'error',
    errmsg: `the history source did not answer within ${DEADLINE_MS} ms; retry shortly`,
  })
  // a busy machine's late timers fit fewer calls in the deadline, never more; one deadline per page would allow 9
  t.ok(calls <= Math.ceil(DEADLINE_MS / PER_CALL_MS), `only the calls that fit in one deadline (${calls})`)
  t.comment(`answered after ${elapsedMs} ms`)
})
