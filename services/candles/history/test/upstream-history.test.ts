// On-demand history through POST /v1/ohlc and GET /v1/udf/history, over a memory store and the History API
// stand-in, with the clock in the test's hands: what is fetched, stored and answered, what is not asked twice,
// how failures answer, and the seam between the source's candles and ours.

import t from 'tap'
import { UpstreamProxyError } from '../../../../schemas/errors.ts'
import { OhlcResponse } from '../../../../schemas/ohlc.ts'
import { readJson } from '../../../../test/support/http.ts'
import { EVENT_DEADLINE_MS, withDeadline } from '../../../../test/support/wait.ts'
import { tickCandle, mergeCandles } from '../../candle.ts'
import { asOhlc, historyFixture, NOW } from './history-fixture.ts'

const HOUR = 3600
const DAY = 86_400
const month = { pair: 'BTC-USD', fromTimestampSeconds: NOW - 30 * DAY, toTimestampSeconds: NOW, resolution: '60' }

t.test('candles older than the service equal the source bars, stored once: the same range again calls nothing', async (t) => {
  const { ohlc, standin, store } = await historyFixture(t)
  const response = await ohlc(month)
  t.equal(response.status, 200)
  const body = await readJson(response)
  t.ok(OhlcResponse.safeParse(body).success, 'matches the schema')
  // the hour in progress has not ended: it is not fetched
  const expected = standin.bars('Crypto.BTC/USD', '60', NOW - 30 * DAY, NOW - HOUR - 1)
  t.equal(expected.length, 719)
  t.strictSame(body, { data: asOhlc(expected, 'BTC', 'USD'), lastRequestTimestamp: NOW })
  t.equal(standin.historyRequests.length, 1, 'one call for 719 hours')
  t.strictSame(Object.fromEntries(standin.historyRequests[0]!.query), {
    symbol: 'Crypto.BTC/USD',
    resolution: '60',
    from: String(NOW - 30 * DAY),
    to: String(NOW - HOUR - 1),
  })
  t.equal((await store.read('BTC-USD', '60', 0, NOW, 1000)).length, 719, 'stored')
  t.strictSame(await readJson(await ohlc(month)), body)
  t.equal(standin.historyRequests.length, 1, 'asked about once')
})

t.test('20 concurrent identical requests cost one upstream call, and get one answer', async (t) => {
  const { ohlc, standin, metrics } = await historyFixture(t)
  const request = { pair: 'ETH-USD', fromTimestampSeconds: NOW - 2 * DAY, toTimestampSeconds: NOW, resolution: '15' }
  const answers = await Promise.all(Array.from({ length: 20 }, () => ohlc(request).then(readJson)))
  t.equal(standin.historyRequests.length, 1)
  t.ok(answers.every((answer) => JSON.stringify(answer) === JSON.stringify(answers[0])))
  t.equal(answers[0].data.length, 2 * 96 - 1)
  t.equal((await metrics.historySharedCalls.get()).values.find((value) => value.labels.from === 'replica')?.value, 19)
})

t.test('a range longer than one answer is fetched and paged a thousand periods at a time', async (t) => {
  const { ohlc, standin } = await historyFixture(t)
  const from = NOW - 3 * DAY
  const first = await readJson(await ohlc({ pair: 'SOL-USD', fromTimestampSeconds: from, toTimestampSeconds: NOW, resolution: '1' }))
  t.equal(first.data.length, 1000)
  t.equal(first.lastRequestTimestamp, from + 1000 * 60)
  t.strictSame(first.data, asOhlc(standin.bars('Crypto.SOL/USD', '1', from, from + 999 * 60), 'SOL', 'USD'))
  t.equal(standin.historyRequests.length, 1, 'one call for the thousand minutes of the answer')
  const second = await readJson(
    await ohlc({ pair: 'SOL-USD', fromTimestampSeconds: first.lastRequestTimestamp, toTimestampSeconds: NOW, resolution: '1' }),
  )
  t.equal(second.data[0].time, first.lastRequestTimestamp * 1000, 'the next page starts where the first ended')
  t.equal(standin.historyRequests.length, 2)
})

t.test('the seam: our candles win; the source fills only what we lack, and a minute it fills joins the wider candles', async (t) => {
  const { ohlc, store, standin } = await historyFixture(t)
  // our ticks from 14:40 on: mids a little off the source's (our mid against its price)
  const start = NOW - 20 * 60
  const ours = Array.from({ length: 20 }, (_, minute) => {
    const bar = standin.bars('Crypto.BTC/USD', '1', start + 60 * minute, start + 60 * minute)[0]!
    return mergeCandles(tickCandle(bar.open * 1.001, start + 60 * minute + 5), tickCandle(bar.close * 1.001, start + 60 * minute + 50))
  })
  await store.merge('BTC-USD', ours)
  const body = await readJson(await ohlc({ pair: 'BTC-USD', fromTimestampSeconds: NOW - HOUR, toTimestampSeconds: NOW, resolution: '1' }))
  const source = standin.bars('Crypto.BTC/USD', '1', NOW - HOUR, start - 1)
  t.strictSame(body.data, [...asOhlc(source, 'BTC', 'USD'), ...asOhlc(ours, 'BTC', 'USD')], 'the source before 14:40, ours after')
  const [hour] = (
    await readJson(await ohlc({ pair: 'BTC-USD', fromTimestampSeconds: NOW - HOUR, toTimestampSeconds: NOW, resolution: '60' }))
  ).data
  t.strictSame(
    hour,
    {
      from: 'BTC',
      to: 'USD',
      time: (NOW - HOUR) * 1000,
      open: source[0]!.open,
      high: Math.max(...source.map((bar) => bar.high), ...ours.map((candle) => candle.high)),
      low: Math.min(...source.map((bar) => bar.low), ...ours.map((candle) => candle.low)),
      close: ours.at(-1)!.close,
    },
    'the hour holds both: it opens with the source and closes with us',
  )
})

t.test('a shut market is not asked about; a pair the source lacks is never asked', async (t) => {
  const { ohlc, standin } = await historyFixture(t)
  const weekend = {
    pair: 'AAPL-USD',
    fromTimestampSeconds: Date.UTC(2026, 10, 21) / 1000,
    toTimestampSeconds: Date.UTC(2026, 10, 23) / 1000,
    resolution: '60',
  }
  t.strictSame(await readJson(await ohlc(weekend)), { data: [], lastRequestTimestamp: weekend.toTimestampSeconds })
  t.strictSame(await readJson(await ohlc({ ...weekend, pair: 'SPX-USD' })), { data: [], lastRequestTimestamp: weekend.toTimestampSeconds })
  t.equal(standin.historyRequests.length, 0)
})

t.test('older than the store keeps: fetched for the answer, not stored, and fetched again the next time', async (t) => {
  const { ohlc, standin, store } = await historyFixture(t, { keepPerResolution: 100 })
  const old = { pair: 'BTC-USD', fromTimestampSeconds: NOW - 10 * DAY, toTimestampSeconds: NOW - 9 * DAY, resolution: '60' }
  const body = await readJson(await ohlc(old))
  t.strictSame(body.data, asOhlc(standin.bars('Crypto.BTC/USD', '60', old.fromTimestampSeconds, old.toTimestampSeconds - 1), 'BTC', 'USD'))
  t.strictSame(await store.read('BTC-USD', '60', 0, NOW, 1000), [])
  await ohlc(old)
  t.equal(standin.historyRequests.length, 2)
})

t.test(
  'a failing or hanging source: the upstream-proxy shape with a 5xx within the deadline; nothing is remembered as asked',
  async (t) => {
    // the errors on the fixture's 5 s deadline, so that an answer read late on a paused machine is still theirs;
    // the hang on a 400 ms one
    const failing = await historyFixture(t)
    const hanging = await historyFixture(t, { timeoutMs: 400 })
    const request = { pair: 'XAU-USD', fromTimestampSeconds: NOW - DAY, toTimestampSeconds: NOW, resolution: '5' }
    const cases = [
      [failing, 'http-500', 502, 'the history source answered HTTP 500; retry shortly'],
      [failing, 'udf-error', 502, 'the history source refused: internal error while reading history; retry shortly'],
      [failing, 'malformed', 502, 'the history source answered something other than JSON; retry shortly'],
      [failing, 'reset', 502, 'the history source cannot be reached (connection refused or dropped); retry shortly'],
      [hanging, 'hang', 504, 'the history source did not answer within 400 ms; retry shortly'],
    ] as const
    for (const [{ ohlc, standin }, fault, status, error] of cases) {
      standin.setFault(fault)
      const started = Date.now()
      const response = await withDeadline(ohlc(request), EVENT_DEADLINE_MS, `the answer with the source's ${fault}`)
      t.equal(response.status, status, fault)
      const body = await readJson(response)
      t.ok(UpstreamProxyError.safeParse(body).success)
      t.strictSame(body, { error })
      if (fault === 'hang') t.ok(Date.now() - started >= 400, 'hang: answered at the deadline, not before')
    }
    for (const { ohlc, standin, server } of [failing, hanging]) {
      standin.setFault('none')
      const recovered = await ohlc(request)
      t.equal(recovered.status, 200, 'the next request after the source recovers is answered')
      t.equal((await readJson(recovered)).data.length > 0, true)
      t.equal((await fetch(`${server.baseUrl}/v1/udf/time`)).status, 200, 'the routes keep answering')
    }
  },
)

t.test('the call budget: past it, 503 in the upstream-proxy shape, and no call', async (t) => {
  const { ohlc, standin, metrics } = await historyFixture(t, { callsPerMinute: 1 })
  t.equal((await ohlc({ ...month, pair: 'ETH-USD' })).status, 200)
  const refused = await ohlc({ ...month, pair: 'SOL-USD' })
  t.equal(refused.status, 503)
  t.match(await readJson(refused), { error: /^the history source's call budget is spent; retry in \d+ s$/ })
  t.equal(standin.historyRequests.length, 1)
  t.equal((await metrics.historyBudgetRefusals.get()).values[0]?.value, 1)
})

t.test('the key goes as a bearer token; a refused key is a 502', async (t) => {
  const keyed = await historyFixture(t, { standinOptions: { apiKey: 's3cret' }, apiKey: 's3cret' })
  t.equal((await keyed.ohlc(month)).status, 200)
  t.equal(keyed.standin.historyRequests[0]!.authorization, 'Bearer s3cret')
  const wrong = await historyFixture(t, { standinOptions: { apiKey: 's3cret' }, apiKey: 'other' })
  const refused = await wrong.ohlc(month)
  t.equal(refused.status, 502)
  t.strictSame(await readJson(refused), { error: 'the history source answered HTTP 403; retry shortly' })
})
