import t from 'tap'
import { inProcessPriceBus } from '../../../bus/in-process-price-bus.ts'
import { createMetrics } from '../../../kit/metrics.ts'
import { waitFor } from '../../../test/support/wait.ts'
import { startIngestor } from '../ingestor.ts'
import { alwaysOpenMarketClock, type MarketClock } from '../../market-hours/market-clock.ts'
import type { FeedSink, FeedSource } from '../sources/feed-source.ts'
import { silentLogger } from '../../../test/support/silent-logger.ts'

/** A source the test drives by hand. */
function manualSource() {
  let sink: FeedSink | undefined
  const source: FeedSource = { name: 'manual', start: (given) => (sink = given), stop: async () => {} }
  return { source, sink: () => sink! }
}

t.test('publishes normalised rows, counts and drops bad data by reason', async (t) => {
  const bus = inProcessPriceBus()
  const metrics = createMetrics()
  const published: Array<[string, Record<string, unknown>]> = []
  bus.subscribeTicks((pair, row) => published.push([pair, JSON.parse(Buffer.from(row).toString())]))
  const { source, sink } = manualSource()
  const ingestor = startIngestor({ source, bus, clock: alwaysOpenMarketClock(), logger: silentLogger(), metrics })
  t.teardown(ingestor.stop)
  const nowSeconds = Math.floor(Date.now() / 1000)
  sink().quote({ pair: 'SOL-USD', feedId: '0x01', bid: 179, mid: 180, ask: 181, publishTimeSeconds: nowSeconds })
  sink().quote({ pair: 'SOL-USD', feedId: '0x01', bid: 182, mid: 180, ask: 181, publishTimeSeconds: nowSeconds })
  sink().malformed('invalid_json', { line: 3 })
  await waitFor(() => published.length === 1)
  t.equal(published[0]![0], 'SOL-USD')
  t.equal(published[0]![1].mid, 180)
  await ingestor.stop() // hands the hot-path counts to the metrics
  const text = await metrics.registry.metrics()
  t.match(text, /venue_ticks_ingested_total\{source="manual"\} 1/)
  t.match(text, /venue_ticks_dropped_total\{source="manual",reason="crossed_prices"\} 1/)
  t.match(text, /venue_ticks_dropped_total\{source="manual",reason="invalid_json"\} 1/)
})

t.test('a quiet pair is published again when its market flags flip, with its last prices', async (t) => {
  const bus = inProcessPriceBus()
  let clockNow = 1_795_000_000_000
  // every flag check reads the clock once: counting the reads is how the test sees checks happen
  let clockReads = 0
  const flipAt = clockNow + 5_000
  const clock: MarketClock = {
    ...alwaysOpenMarketClock(),
    flagsAt: (_, nowMs) =>
      nowMs < flipAt
        ? { isMarketOpen: true, isDayTradingClosed: false, secondsToToggleIsDayTradingClosed: Math.ceil((flipAt - nowMs) / 1000) }
        : { isMarketOpen: false, isDayTradingClosed: true, secondsToToggleIsDayTradingClosed: -1 },
    nextChangeAt: (_, nowMs) => (nowMs < flipAt ? flipAt : Number.POSITIVE_INFINITY),
  }
  const rows: Array<Record<string, unknown>> = []
  bus.subscribeTicks((_, row) => rows.push(JSON.parse(Buffer.from(row).toString())))
  const { source, sink } = manualSource()
  const ingestor = startIngestor({
    source,
    bus,
    clock,
    logger: silentLogger(),
    metrics: createMetrics(),
    now: () => {
      clockReads++
      return clockNow
    },
    flagCheckIntervalMs: 5,
  })
  t.teardown(ingestor.stop)
  sink().quote({ pair: 'AAPL-USD', feedId: '0x17', bid: 269, mid: 270, ask: 271, publishTimeSeconds: 1_794_999_999 })
  await waitFor(() => rows.length === 1)
  t.same([rows[0]!.isMarketOpen, rows[0]!.secondsToToggleIsDayTradingClosed], [true, 5])
  clockNow = flipAt
  await waitFor(() => rows.length === 2, { what: 'republished row' })
  t.same(
    { ...rows[1], schedule: undefined },
    { ...rows[0], isMarketOpen: false, isDayTradingClosed: true, secondsToToggleIsDayTradingClosed: -1, schedule: undefined },
  )
  t.equal(rows[1]!.timestampSeconds, 1_794_999_999, 'the tick time stays that of the last price')
  clockNow += 60_000
  const readsBefore = clockReads
  await waitFor(() => clockReads >= readsBefore + 5, { what: 'five flag checks a minute later' })
  t.equal(rows.length, 2, 'no further republishing once nothing else changes')
})
