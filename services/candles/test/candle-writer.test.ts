// The candle writer on the in-process bus: folding, flushing, and surviving a store outage (real Redis).

import t, { type Test } from 'tap'
import { Redis } from 'ioredis'
import { randomUUID } from 'node:crypto'
import { inProcessPriceBus } from '../../../bus/in-process-price-bus.ts'
import { createMetrics, type Metrics } from '../../../kit/metrics.ts'
import { priceRow, rowBytes } from '../../../test/support/price-rows.ts'
import { startRedis } from '../../../test/support/servers.ts'
import { waitFor } from '../../../test/support/wait.ts'
import { memoryCandleStore } from '../memory-candle-store.ts'
import { redisCandleStore } from '../redis-candle-store.ts'
import type { Candle } from '../candle.ts'
import { startCandleWriter, type CandleWriter } from '../candle-writer.ts'
import type { CandleStore } from '../candle-store.ts'
import { silentLogger } from '../../../test/support/silent-logger.ts'

const logger = silentLogger()
/** Monday 2026-03-02 00:00 UTC. */
const DAY = Date.UTC(2026, 2, 2) / 1000
const ALL = [0, 4_000_000_000] as const

const tickCount = async (metrics: Metrics, outcome: string) =>
  (await metrics.candleTicks.get()).values.find((value) => value.labels.outcome === outcome)?.value ?? 0

/** Flushes until the pair has `count` minute candles (the last one passing `done`), and returns them. */
function flushedCandles(
  writer: CandleWriter,
  store: CandleStore,
  pair: string,
  count: number,
  done: (last: Candle) => boolean = () => true,
) {
  return waitFor(
    async () => {
      await writer.flush()
      const candles = await store.read(pair, '1', ...ALL, 100)
      return candles.length === count && done(candles[count - 1]!) && candles
    },
    { what: `${count} minute candles of ${pair}` },
  )
}

/** A writer on a fresh in-process bus that only writes when asked to (flush or stop). */
function startWriter(t: Test, store: CandleStore) {
  const bus = inProcessPriceBus()
  const metrics = createMetrics()
  const writer = startCandleWriter({ bus, store, logger, metrics, flushIntervalMs: 3_600_000 })
  t.teardown(async () => {
    await writer.stop()
    await bus.close()
  })
  const publish = (pair: string, mid: number, timestampSeconds: number) =>
    bus.publishTick(pair, rowBytes(priceRow(pair, { mid, timestampSeconds })))
  return { bus, metrics, writer, publish }
}

t.test('folds the mid of every tick into minute candles, in timestamp order, and merges them on flush', async (t) => {
  const store = memoryCandleStore({ keepPerResolution: 100 })
  const { bus, metrics, writer, publish } = startWriter(t, store)
  publish('BTC-USD', 100, DAY + 10)
  publish('BTC-USD', 104, DAY + 20)
  publish('BTC-USD', 98, DAY + 5) // late, but the earliest: it opens the minute
  publish('BTC-USD', 101, DAY + 59)
  publish('BTC-USD', 102, DAY + 60)
  publish('ETH-USD', 3000, DAY + 30)
  bus.publishTick('BTC-USD', Buffer.from('{"mid":"not a number"}'))
  bus.publishTick('DOGE-USD', rowBytes(priceRow('BTC-USD')))
  const btc = await flushedCandles(writer, store, 'BTC-USD', 2)
  t.strictSame(btc, [
    { time: DAY, open: 98, openAt: DAY + 5, high: 104, low: 98, close: 101, closeAt: DAY + 59 },
    { time: DAY + 60, open: 102, openAt: DAY + 60, high: 102, low: 102, close: 102, closeAt: DAY + 60 },
  ])
  t.strictSame(await store.read('ETH-USD', '1', ...ALL, 10), [
    { time: DAY, open: 3000, openAt: DAY + 30, high: 3000, low: 3000, close: 3000, closeAt: DAY + 30 },
  ])
  publish('BTC-USD', 97, DAY + 61)
  const later = await waitFor(
    async () => {
      await writer.flush()
      const [minute] = await store.read('BTC-USD', '1', DAY + 60, DAY + 120, 10)
      return minute?.closeAt === DAY + 61 && minute
    },
    { what: 'the later tick' },
  )
  t.strictSame(
    later,
    { time: DAY + 60, open: 102, openAt: DAY + 60, high: 102, low: 97, close: 97, closeAt: DAY + 61 },
    'a later flush merges into the stored minute',
  )
  await writer.stop()
  t.equal(await tickCount(metrics, 'folded'), 7)
  t.equal(await tickCount(metrics, 'malformed'), 1)
  t.equal(await tickCount(metrics, 'unlisted_pair'), 1)
})

t.test('stop writes what is left', async (t) => {
  const store = memoryCandleStore({ keepPerResolution: 100 })
  const { bus, writer, publish } = startWriter(t, store)
  publish('SOL-USD', 150, DAY)
  await bus.flush() // the in-process bus has delivered the tick
  await writer.stop()
  t.equal((await store.read('SOL-USD', '1D', ...ALL, 10)).length, 1)
})

t.test('candles folded while Redis is down are written once it is back', async (t) => {
  const redisServer = await startRedis()
  t.teardown(() => redisServer.dispose())
  const redis = new Redis(redisServer.url, { maxRetriesPerRequest: null })
  redis.on('error', () => {})
  t.teardown(() => redis.disconnect())
  await new Promise((resolve) => redis.once('ready', resolve))
  const store = redisCandleStore({ redis, keyPrefix: `t-${randomUUID()}`, keepPerResolution: 100 })
  const { metrics, writer, publish } = startWriter(t, store)

  await redisServer.stop()
  await waitFor(() => redis.status !== 'ready', { what: 'the client to notice' })
  publish('XAU-USD', 4000, DAY + 30)
  await waitFor(
    async () => {
      await writer.flush()
      return (await metrics.candleWriteFailures.get()).values[0]?.value === 1
    },
    { what: 'a failed merge' },
  )
  publish('XAU-USD', 4010, DAY + 40)
  publish('XAU-USD', 3990, DAY + 10)

  await redisServer.start()
  await waitFor(() => redis.status === 'ready', { what: 'the client to reconnect', timeoutMs: 10_000 })
  t.strictSame(await flushedCandles(writer, store, 'XAU-USD', 1, (candle) => candle.closeAt === DAY + 40), [
    { time: DAY, open: 3990, openAt: DAY + 10, high: 4010, low: 3990, close: 4010, closeAt: DAY + 40 },
  ])
})
