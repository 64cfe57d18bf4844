// The candle stream on an edge whose clock the test holds: ticks with chosen timestamps go on the bus (as the
// ingestor publishes them), and moving the clock ends periods and opens and closes markets, as the calendar says.
// Over NVDA's Friday close, a closed weekend and Monday's open, a WebSocket (`ws`) and an event stream get the
// same frames, and every closed candle is what POST /v1/ohlc answers for its period.
import t from 'tap'
import { CandleServerFrame } from '../../../schemas/stream.ts'
import { startTestEdge } from '../../../test/support/edge-harness.ts'
import { readJson } from '../../../test/support/http.ts'
import { priceRow, rowBytes } from '../../../test/support/price-rows.ts'
import { openEventStream } from '../../../test/support/resume-clients.ts'
import { openStream, type TestStreamClient } from '../../../test/support/stream-clients.ts'

const [NVDA, BTC] = ['NVDA-USD', 'BTC-USD']
/** Friday 2026-03-06 16:00 in New York: NVDA's market closes */
const CLOSE = Date.UTC(2026, 2, 6, 21, 0) / 1000
/** Saturday noon UTC: NVDA's market is closed, BTC's open */
const SATURDAY = Date.UTC(2026, 2, 7, 12, 0) / 1000
/** Monday 2026-03-09 09:30 in New York (summer time since Sunday): it opens again */
const REOPEN = Date.UTC(2026, 2, 9, 13, 30) / 1000

let nowMs = (CLOSE - 180) * 1000
const edge = await startTestEdge({ candles: { now: () => nowMs } })
let stopped = false
t.teardown(() => (stopped ? undefined : edge.stop()))

const tick = (pair: string, mid: number, timestampSeconds: number, isMarketOpen = true) =>
  edge.bus.publishTick(pair, rowBytes(priceRow(pair, { bid: mid - 0.5, mid, ask: mid + 0.5, timestampSeconds, isMarketOpen })))

const streamUrl = (query: string) => `${edge.baseUrl.replace('http', 'ws')}/v1/candles/stream?${query}`
const minutes = await openStream(streamUrl(`pairs=${NVDA},${BTC}&resolution=1`))
const hours = await openStream(streamUrl(`pairs=${NVDA}&resolution=60`))
const events = await openEventStream(`${edge.baseUrl}/v1/candles/stream?pairs=${NVDA},${BTC}&resolution=1`)
t.teardown(() => {
  minutes.socket.terminate()
  hours.socket.terminate()
  events.abort()
})

const candle = (pair: string, time: number, prices: [number, number, number, number], resolution: string, closed: boolean) => {
  const [from, to] = pair.split('-')
  const [open, high, low, close] = prices
  return { type: 'candle', data: { from, to, time: time * 1000, open, high, low, close, resolution, closed } }
}
/** the next candle frame after the `seen` first ones */
const nextCandle = (client: TestStreamClient, seen: number, what: string) =>
  client.messages.waitFor((frame) => frame.type === 'candle', what, { from: seen })
const ohlc = async (pair: string, resolution: string, from: number, to: number) => {
  const response = await fetch(`${edge.baseUrl}/v1/ohlc`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ pair, resolution, fromTimestampSeconds: from, toTimestampSeconds: to }),
  })
  t.equal(response.status, 200)
  return (await readJson(response)).data
}
/** A closed frame's candle as POST /v1/ohlc has it. */
const asOhlc = (frame: { data: Record<string, unknown> }) => {
  const { resolution: _resolution, closed: _closed, ...data } = frame.data
  return data
}

t.test('the first frame is the snapshot: no candle yet', async (t) => {
  t.strictSame(await minutes.messages.waitFor(() => true, 'snapshot'), { type: 'snapshot', data: [] })
  t.strictSame(await hours.messages.waitFor(() => true, 'snapshot'), { type: 'snapshot', data: [] })
})

t.test('ticks of one second make one frame: the candle as it forms, sent only when it changed', async (t) => {
  const minute = CLOSE - 180
  for (const mid of [100, 103, 98, 101]) tick(NVDA, mid, minute + 10)
  t.strictSame(await nextCandle(minutes, 1, 'the forming candle'), candle(NVDA, minute, [100, 103, 98, 101], '1', false))
  t.equal(minutes.messages.items.length, 2, 'one frame for four ticks')
  t.strictSame(await nextCandle(hours, 1, 'the forming hour'), candle(NVDA, CLOSE - 3600, [100, 103, 98, 101], '60', false))

  // a tick that changes nothing, with a BTC tick that shows the turn after it ran
  tick(NVDA, 101, minute + 10)
  tick(BTC, 50_000, minute + 11)
  t.strictSame(await nextCandle(minutes, 2, "BTC's forming candle"), candle(BTC, minute, [50_000, 50_000, 50_000, 50_000], '1', false))
  tick(BTC, 50_010, minute + 12)
  t.strictSame(await nextCandle(minutes, 3, "BTC's changed candle"), candle(BTC, minute, [50_000, 50_010, 50_000, 50_010], '1', false))
  t.strictSame(minutes.messages.items.length, 4, 'no frame for the unchanged NVDA candle')
  tick(NVDA, 102, minute + 50)
  t.strictSame(await nextCandle(minutes, 4, 'the changed candle'), candle(NVDA, minute, [100, 103, 98, 102], '1', false))
})

t.test("a period's end: one closed frame, the candle POST /v1/ohlc answers for the period", async (t) => {
  const minute = CLOSE - 180
  const endedAt = performance.now()
  nowMs = (minute + 60) * 1000
  const first = await nextCandle(minutes, 5, 'the first closed candle')
  const second = await nextCandle(minutes, 6, 'the second closed candle')
  t.comment(`closed frames ${Math.round(performance.now() - endedAt)} ms after the clock passed the end`)
  t.strictSame(first, candle(BTC, minute, [50_000, 50_010, 50_000, 50_010], '1', true), 'in pair order: BTC first')
  t.strictSame(second, candle(NVDA, minute, [100, 103, 98, 102], '1', true))
  t.strictSame(await ohlc(NVDA, '1', minute, minute + 60), [asOhlc(second)])
  t.strictSame(await ohlc(BTC, '1', minute, minute + 60), [asOhlc(first)])
})

t.test("over the market's close: the last minute and hour close with it, a late row of the flip changes nothing", async (t) => {
  tick(NVDA, 105, CLOSE - 30)
  tick(NVDA, 104, CLOSE - 10)
  t.strictSame(await nextCandle(minutes, 7, 'the last minute forming'), candle(NVDA, CLOSE - 60, [105, 105, 104, 104], '1', false))
  nowMs = CLOSE * 1000
  const lastMinute = await nextCandle(minutes, 8, 'the last minute closed')
  t.strictSame(lastMinute, candle(NVDA, CLOSE - 60, [105, 105, 104, 104], '1', true))
  t.strictSame(await ohlc(NVDA, '1', CLOSE - 120, CLOSE), [asOhlc(lastMinute)], 'the minute without ticks has no candle')
  const hourFrames = hours.messages.items.length
  const hour = await hours.messages.waitFor((frame) => frame.data?.closed === true, 'the hour closed', { from: 2 })
  t.strictSame(hour, candle(NVDA, CLOSE - 3600, [100, 105, 98, 104], '60', true))
  t.strictSame(await ohlc(NVDA, '60', CLOSE - 3600, CLOSE), [asOhlc(hour)])
  t.ok(hourFrames >= 2, 'the hour formed first')

  // the ingestor republishes the row at the flip with its last timestamp: that minute is over
  tick(NVDA, 104, CLOSE - 10, false)
  nowMs = (CLOSE + 30) * 1000
  tick(BTC, 50_100, CLOSE + 20)
  t.strictSame(await nextCandle(minutes, 9, 'BTC after the close'), candle(BTC, CLOSE, [50_100, 50_100, 50_100, 50_100], '1', false))
})

t.test('a closed weekend: no frame for NVDA, even for a feed quoting it; BTC goes on', async (t) => {
  nowMs = (SATURDAY + 40) * 1000
  tick(NVDA, 110, SATURDAY + 30, false)
  tick(BTC, 51_000, SATURDAY + 30)
  const closedFriday = await nextCandle(minutes, 10, "BTC's Friday minute closed")
  t.strictSame(closedFriday, candle(BTC, CLOSE, [50_100, 50_100, 50_100, 50_100], '1', true))
  t.strictSame(await nextCandle(minutes, 11, "BTC's Saturday minute"), candle(BTC, SATURDAY, [51_000, 51_000, 51_000, 51_000], '1', false))
  nowMs = (SATURDAY + 60) * 1000
  const closedSaturday = await nextCandle(minutes, 12, "BTC's Saturday minute closed")
  t.strictSame(closedSaturday, candle(BTC, SATURDAY, [51_000, 51_000, 51_000, 51_000], '1', true))
  t.strictSame(await ohlc(BTC, '1', SATURDAY, SATURDAY + 60), [asOhlc(closedSaturday)])
  t.equal(minutes.messages.items.length, 13, 'nothing of NVDA while its market is closed')
  const quoted = await ohlc(NVDA, '1', SATURDAY, SATURDAY + 60)
  t.equal(quoted.length, 1, 'the candle writer folds every tick: POST /v1/ohlc has the quote the stream left out')
})

t.test("Monday's open: NVDA forms and closes again", async (t) => {
  nowMs = (REOPEN + 5) * 1000
  tick(NVDA, 120, REOPEN + 5)
  tick(NVDA, 121, REOPEN + 6)
  t.strictSame(await nextCandle(minutes, 13, 'the first minute forming'), candle(NVDA, REOPEN, [120, 121, 120, 121], '1', false))
  nowMs = (REOPEN + 60) * 1000
  const opened = await nextCandle(minutes, 14, 'the first minute closed')
  t.strictSame(opened, candle(NVDA, REOPEN, [120, 121, 120, 121], '1', true))
  t.strictSame(await ohlc(NVDA, '1', REOPEN, REOPEN + 60), [asOhlc(opened)])
})

t.test('the event stream got the same frames as the WebSocket, each as an event of its type', async (t) => {
  const frames = minutes.messages.items
  await events.events.until(() => (events.events.items.length >= frames.length ? true : undefined), 'as many events')
  t.strictSame(
    events.events.items.map((event) => ({ event: event.event, frame: JSON.parse(event.data) })),
    frames.map((frame) => ({ event: frame.type, frame })),
  )
  t.ok(
    frames.every((frame) => CandleServerFrame.safeParse(frame).success),
    "every frame fits the documents' schema",
  )
  const closedTimes = frames.filter((frame) => frame.data?.closed).map((frame) => `${frame.data.from}@${frame.data.time}`)
  t.equal(new Set(closedTimes).size, closedTimes.length, 'each period closed once')
})

t.test("a new connection: the snapshot holds each pair's last closed candle and its forming one", async (t) => {
  tick(NVDA, 122, REOPEN + 61)
  await nextCandle(minutes, 15, 'NVDA forming again')
  const late = await openStream(streamUrl(`pairs=${BTC},${NVDA}&resolution=1`))
  t.teardown(() => late.socket.terminate())
  t.strictSame(await late.messages.waitFor(() => true, 'snapshot'), {
    type: 'snapshot',
    data: [
      candle(BTC, SATURDAY, [51_000, 51_000, 51_000, 51_000], '1', true).data,
      candle(NVDA, REOPEN, [120, 121, 120, 121], '1', true).data,
      candle(NVDA, REOPEN + 60, [122, 122, 122, 122], '1', false).data,
    ],
  })
})

t.test('shutdown: sockets close with 1001, event streams end', async (t) => {
  stopped = true
  await edge.stop()
  t.same(await minutes.closed, { code: 1001, reason: 'going away' })
  await events.ended
  t.pass('the event stream ended')
})
