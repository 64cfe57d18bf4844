// A 3-minute ingest stop, driven on an injectable clock: ticks replayed onto the in-process bus at their
// (fake) times, folded by the candle writer, then the background repair. Once the missed minutes have
// settled they are the source's bars, and the hour around them is whole; before then they are left alone.

import t from 'tap'
import { inProcessPriceBus } from '../../../../bus/in-process-price-bus.ts'
import { createMetrics } from '../../../../kit/metrics.ts'
import { pairBySymbol } from '../../../../schemas/pairs.ts'
import { priceRow, rowBytes } from '../../../../test/support/price-rows.ts'
import { silentLogger } from '../../../../test/support/silent-logger.ts'
import { waitFor } from '../../../../test/support/wait.ts'
import { startCandleWriter } from '../../candle-writer.ts'
import { startHistoryBackfill } from '../history-backfill.ts'
import { historyFixture, NOW } from './history-fixture.ts'

const START = NOW - 3600 // 14:00
const minute = (index: number) => START + 60 * index
const STOPPED = [10, 11, 12]

const { store, upstream, standin, clock, ohlc } = await historyFixture(t)
// ten seconds after the start: the minute before it has settled
clock.now = (START + 10) * 1000
const bus = inProcessPriceBus()
const writer = startCandleWriter({ bus, store, logger: silentLogger(), metrics: createMetrics(), flushIntervalMs: 3_600_000 })
const backfill = startHistoryBackfill({
  upstream,
  pairs: [pairBySymbol('BTC-USD')!],
  backfillSeconds: { '1': 3600 },
  timeoutMs: 5000,
  repairEveryMs: 3_600_000,
  logger: silentLogger(),
  now: () => clock.now,
})
t.teardown(async () => {
  await backfill.stop()
  await writer.stop()
  await bus.close()
})
await backfill.backfilled

/** Our ticks for one minute, every 10 s from its fifth second, at mids 0.1 % above the source's: ours are told apart. */
const tickThrough = async (index: number) => {
  clock.now = minute(index) * 1000
  const [bar] = standin.bars('Crypto.BTC/USD', '1', minute(index), minute(index))
  for (let second = 5; second < 60; second += 10) {
    clock.now = (minute(index) + second) * 1000
    const mid = (bar!.open + ((bar!.close - bar!.open) * second) / 60) * 1.001
    bus.publishTick('BTC-USD', rowBytes(priceRow('BTC-USD', { mid, timestampSeconds: minute(index) + second })))
  }
  // the bus delivers on a later turn: flush until the minute is stored
  await waitFor(
    async () => {
      await writer.flush()
      return (await store.read('BTC-USD', '1', minute(index), minute(index + 1), 1)).length === 1
    },
    { what: `minute ${index} stored` },
  )
}

t.test('the minutes before the service started are the source bars (the start backfill)', async (t) => {
  const before = await store.read('BTC-USD', '1', START - 3600, START, 100)
  t.equal(before.length, 60)
  t.strictSame(
    before.map(({ time, open, close }) => ({ time, open, close })),
    standin.bars('Crypto.BTC/USD', '1', START - 3600, START - 60).map(({ time, open, close }) => ({ time, open, close })),
  )
})

t.test('a 3-minute ingest stop leaves no hole once its minutes have settled', async (t) => {
  for (let index = 0; index < 16; index++) if (!STOPPED.includes(index)) await tickThrough(index)
  const held = async () => (await store.read('BTC-USD', '1', START, minute(16), 100)).map((candle) => (candle.time - START) / 60)
  t.strictSame(await held(), [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 13, 14, 15], 'the hole, right after the stop')

  // 14:13:02: the first two missed minutes ended long ago, the third two seconds ago: ours could still arrive
  clock.now = (minute(13) + 2) * 1000
  await backfill.repairNow()
  t.strictSame(await held(), [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 14, 15], 'a minute that has not settled is left alone')

  clock.now = minute(16) * 1000 + 5_000
  await backfill.repairNow()
  t.strictSame(await held(), [...Array(16).keys()], 'no hole')
  const minutes = await store.read('BTC-USD', '1', START, minute(16), 100)
  const sourceBars = standin.bars('Crypto.BTC/USD', '1', minute(10), minute(12))
  t.strictSame(
    minutes
      .filter((candle) => STOPPED.includes((candle.time - START) / 60))
      .map(({ time, open, high, low, close }) => ({ time, open, high, low, close })),
    sourceBars,
    'the missed minutes are the source bars',
  )
  t.ok(
    minutes.filter((candle) => !STOPPED.includes((candle.time - START) / 60)).every((candle) => candle.openAt > candle.time),
    'the others are still ours (opened by a tick, not at the minute start)',
  )
  const [hour] = (
    await (await ohlc({ pair: 'BTC-USD', fromTimestampSeconds: START, toTimestampSeconds: minute(16), resolution: '60' })).json()
  ).data
  t.equal(hour.high, Math.max(...minutes.map((candle) => candle.high)), 'the hour holds the repaired minutes')
  t.equal(hour.low, Math.min(...minutes.map((candle) => candle.low)))
  t.equal(hour.close, minutes.at(-1)!.close)
  const calls = standin.historyRequests.length
  await backfill.repairNow()
  t.equal(standin.historyRequests.length, calls, 'repaired minutes are not asked about again')
})
