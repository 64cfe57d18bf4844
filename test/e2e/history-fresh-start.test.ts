// A fresh start as `npm start` makes it (every role, the simulator, the embedded GraphQL and History API
// stand-ins, memory stores), read the way the venue's C# connector reads candles (its paging through
// POST /v1/ohlc, test/support/stocksharp-connector.ts): a month of hours and three days of minutes are
// there with no gap or repeat, a legacy spelling gets the same history, and the stand-in's bars join the
// simulator's prices where the service's own candles begin.
//
// One of the few files that start the service through `npm start`'s entry (NPM_START_ENTRY) rather than the
// compiled build: what it tests is the embedded default a user gets, whose History API stand-in only `npm start`
// runs, anchored at the moment its simulator starts (the instant its log names as joinsSimulatorAt).

import t from 'tap'
import { STARTING_MIDS } from '../../services/ingestor/sources/simulated-markets.ts'
import { NPM_START_ENTRY, startServiceProcess } from '../support/service-process.ts'
import { CONNECTOR_HTTP_HEADERS, connectorCandles } from '../support/stocksharp-connector.ts'
import { waitFor } from '../support/wait.ts'

t.setTimeout(180_000)
const HOUR = 3_600_000
const DAY = 24 * HOUR
const service = startServiceProcess([], { PORT: '0', HOST: '127.0.0.1', ONBOARDING_ENABLED: 'false' }, undefined, NPM_START_ENTRY)
t.teardown(() => service.stop())
const base = `http://127.0.0.1:${Number((await service.waitForLog('edge listening')).port)}`
const history = await service.waitForLog('upstream history source')
const startedAt = Date.parse(String(history.joinsSimulatorAt))
const post = async (body: string) =>
  (
    await fetch(`${base}/v1/ohlc`, {
      method: 'POST',
      body,
      headers: { ...CONNECTOR_HTTP_HEADERS, 'content-type': 'application/json; charset=utf-8' },
    })
  ).json()
const startMinute = Math.floor(startedAt / 60_000) * 60_000
const steps = (times: number[]) => times.slice(1).map((time, index) => time - times[index]!)
// a minute around the start that our ticks missed (the simulator starts a moment after the anchor) is
// repaired once it has settled, a few seconds after its end: wait until the minutes around the start are whole
await waitFor(
  async () => {
    const from = startMinute / 1000 - 180
    const { data } = (await post(
      JSON.stringify({ pair: 'BTC-USD', fromTimestampSeconds: from, toTimestampSeconds: from + 240, resolution: '1' }),
    )) as {
      data: Array<{ time: number }>
    }
    return data.length === 4 && steps(data.map((candle) => candle.time)).every((step) => step === 60_000)
  },
  { timeoutMs: 90_000, intervalMs: 1000, what: 'the minutes around the start' },
)

t.test('30 days of 60 candles for BTC-USD, paged as the connector pages', async (t) => {
  const now = Date.now()
  const { candles, pages } = await connectorCandles(post, {
    pair: 'BTC-USD',
    fromMs: now - 30 * DAY,
    toMs: now,
    resolution: '60',
    maximumCandles: 1000,
  })
  const times = candles.map((candle) => candle.time)
  t.equal(times[0], Math.floor((now - 30 * DAY) / HOUR) * HOUR, 'from the hour holding the start of the range')
  t.ok(times.at(-1)! >= Math.floor(now / HOUR) * HOUR - HOUR, 'to the hour in progress (ours), or the last when it has just begun')
  t.ok(
    steps(times).every((step) => step === HOUR),
    'every hour, none twice',
  )
  t.ok(candles.length >= 720, `${candles.length} hours`)
  t.ok(candles.every((candle) => candle.from === 'BTC' && candle.to === 'USD'))
  t.ok(pages <= 2, `${pages} requests`)
})

t.test('3 days of 1 candles page without a gap or a repeat', async (t) => {
  const now = Date.now()
  const { candles, pages } = await connectorCandles(post, {
    pair: 'BTC-USD',
    fromMs: now - 3 * DAY,
    toMs: now,
    resolution: '1',
    maximumCandles: 10_000,
  })
  const times = candles.map((candle) => candle.time)
  t.equal(times[0], Math.floor((now - 3 * DAY) / 60_000) * 60_000)
  t.ok(times.at(-1)! >= Math.floor(now / 60_000) * 60_000 - 60_000, 'to the last minute folded')
  t.strictSame(
    steps(times).filter((step) => step !== 60_000),
    [],
    'every minute, none twice',
  )
  t.ok(candles.length >= 3 * 1440, `${candles.length} minutes in ${pages} requests`)
})

t.test('a legacy spelling gets the same history under the current symbol', async (t) => {
  const now = Date.now()
  const range = { fromMs: now - 30 * DAY, toMs: now, resolution: '60', maximumCandles: 1000 }
  const legacy = await connectorCandles(post, { pair: 'CL-USD', ...range })
  const current = await connectorCandles(post, { pair: 'WTI-USD', ...range })
  t.ok(legacy.candles.length > 300, `${legacy.candles.length} hours of oil: the source has WTI's feed`)
  // the hour in progress moves with our ticks between two reads
  const settled = (candles: Array<{ time: number }>) => candles.filter((candle) => candle.time < Math.floor(now / HOUR) * HOUR)
  t.strictSame(settled(legacy.candles), settled(current.candles))
  t.ok(legacy.candles.every((candle) => candle.from === 'WTI' && candle.to === 'USD'))
  const spx = await connectorCandles(post, { pair: 'SPX-USD', ...range })
  const us500 = await connectorCandles(post, { pair: 'US500-USD', ...range })
  t.strictSame(settled(spx.candles), settled(us500.candles), 'SPX-USD is US500-USD (no source feed: our candles only)')
})

t.test("the seam: the source's last minute closes at the simulator's starting mid, where our first minute opens", async (t) => {
  const answer = (await post(
    JSON.stringify({
      pair: 'BTC-USD',
      fromTimestampSeconds: startMinute / 1000 - 120,
      toTimestampSeconds: startMinute / 1000 + 60,
      resolution: '1',
    }),
  )) as { data: Array<{ time: number; open: number; close: number }> }
  const [, before, ours] = answer.data
  t.equal(before!.time, startMinute - 60_000)
  t.equal(before!.close, STARTING_MIDS['BTC-USD'], 'the source closes the minute before the start at the starting mid')
  t.equal(ours!.time, startMinute)
  t.ok(Math.abs(ours!.open / STARTING_MIDS['BTC-USD']! - 1) < 0.005, `our first minute opens at ${ours!.open}, a tick away`)
})
