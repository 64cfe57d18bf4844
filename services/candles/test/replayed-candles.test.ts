// A recorded tick file replayed through the ingestor onto NATS, folded by two candle writers in one
// queue group into Redis, read back over POST /v1/ohlc at every resolution, and again after Redis
// restarts: the candles equal those computed here straight from the file.

import t from 'tap'
import { Redis } from 'ioredis'
import { randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createMetrics, type Metrics } from '../../../kit/metrics.ts'
import { natsPriceBus } from '../../../bus/nats-price-bus.ts'
import { OHLC_RESOLUTIONS, type OhlcCandle, type OhlcResolution } from '../../../schemas/ohlc.ts'
import { pairBySymbol } from '../../../schemas/pairs.ts'
import { startIngestor } from '../../ingestor/ingestor.ts'
import { alwaysOpenMarketClock } from '../../market-hours/market-clock.ts'
import { replaySource } from '../../ingestor/sources/replay-source.ts'
import { readJson } from '../../../test/support/http.ts'
import { serveRoutes } from '../../../test/support/route-server.ts'
import { startNats, startRedis } from '../../../test/support/servers.ts'
import { waitFor } from '../../../test/support/wait.ts'
import { startCandleWriter } from '../candle-writer.ts'
import { redisCandleStore } from '../redis-candle-store.ts'
import { ohlcRoutes } from '../routes.ts'
import { TICKS_FROM, TICKS_UNTIL, writeTickFile, type RecordedTick } from './fixtures/tick-file.ts'
import { silentLogger } from '../../../test/support/silent-logger.ts'

const logger = silentLogger()
const [nats, redisServer] = await Promise.all([startNats(), startRedis()])
t.teardown(() => Promise.all([nats.dispose(), redisServer.dispose()]))
const dir = mkdtempSync(join(tmpdir(), 'candles-'))
t.teardown(() => rmSync(dir, { recursive: true, force: true }))

const WIDTH: Record<OhlcResolution, number> = { '1': 60, '5': 300, '15': 900, '60': 3600, '240': 14_400, '1D': 86_400 }
const PAIRS = ['BTC-USD', 'EUR-USD', 'NVDA-USD']

/** The candles of one pair and resolution, straight from the recorded ticks: sort by time, group by period. */
function expectedCandles(ticks: RecordedTick[], pair: string, resolution: OhlcResolution): OhlcCandle[] {
  const { base, quote } = pairBySymbol(pair)!
  const byPeriod = new Map<number, number[]>()
  for (const tick of ticks.filter((tick) => tick.pair === pair).sort((a, b) => a.timestampSeconds - b.timestampSeconds)) {
    const period = tick.timestampSeconds - (tick.timestampSeconds % WIDTH[resolution])
    const mids = byPeriod.get(period) ?? []
    mids.push(tick.mid)
    byPeriod.set(period, mids)
  }
  return [...byPeriod].map(([period, mids]) => ({
    from: base,
    to: quote,
    time: period * 1000,
    open: mids[0]!,
    high: Math.max(...mids),
    low: Math.min(...mids),
    close: mids[mids.length - 1]!,
  }))
}

let requests = 0
/** Every candle of a pair and resolution over the file's span, following lastRequestTimestamp page by page. */
async function readAllPages(baseUrl: string, pair: string, resolution: OhlcResolution) {
  const to = TICKS_UNTIL + 86_400
  const candles: OhlcCandle[] = []
  let pages = 0
  for (let from = TICKS_FROM - 86_400; from < to; pages++) {
    const response = await fetch(`${baseUrl}/v1/ohlc`, {
      method: 'POST',
      body: JSON.stringify({ pair, fromTimestampSeconds: from, toTimestampSeconds: to, resolution }),
      // a client IP per request, so that the reads stay within the per-IP budget
      headers: { 'x-forwarded-for': `192.0.2.${(requests++ % 250) + 1}` },
    })
    if (response.status !== 200) throw new Error(`POST /v1/ohlc answered ${response.status}: ${await response.text()}`)
    const page = await readJson(response)
    candles.push(...page.data)
    from = page.lastRequestTimestamp
  }
  return { candles, pages }
}

async function readyRedis(): Promise<Redis> {
  const redis = new Redis(redisServer.url)
  await new Promise((resolve) => redis.once('ready', resolve))
  return redis
}

const foldedBy = async (metrics: Metrics) =>
  (await metrics.candleTicks.get()).values.find((value) => value.labels.outcome === 'folded')?.value ?? 0

t.test('candles from a replayed tick file equal the expected set at every resolution, also after a Redis restart', async (t) => {
  const ticks = writeTickFile(join(dir, 'ticks.jsonl'))
  const namespace = `t${randomUUID().slice(0, 8)}`
  const keyPrefix = `t-${randomUUID()}`
  const openBus = (name: string) => natsPriceBus({ servers: nats.url, namespace, name, logger })

  // two writer replicas, each with its own bus connection and Redis client
  const replicas = await Promise.all(
    ['writer-a', 'writer-b'].map(async (name) => {
      const [bus, redis] = await Promise.all([openBus(name), readyRedis()])
      const metrics = createMetrics()
      const store = redisCandleStore({ redis, keyPrefix, keepPerResolution: 20_160 })
      const writer = startCandleWriter({ bus, store, logger, metrics, queueGroup: 'candle-writers', flushIntervalMs: 50 })
      await bus.flush() // the subscription is live before the replay starts
      return { bus, redis, metrics, writer }
    }),
  )

  const ingestBus = await openBus('ingestor')
  let replayed = false
  const ingestor = startIngestor({
    source: replaySource({ file: join(dir, 'ticks.jsonl'), speed: 0, loop: false, onEnd: () => (replayed = true) }),
    bus: ingestBus,
    clock: alwaysOpenMarketClock(),
    logger,
    metrics: createMetrics(),
  })
  await waitFor(() => replayed, { what: 'the end of the replay', timeoutMs: 20_000 })
  const folded = await waitFor(
    async () => {
      const counts = await Promise.all(replicas.map((replica) => foldedBy(replica.metrics)))
      return counts[0]! + counts[1]! === ticks.length && counts
    },
    { what: `${ticks.length} ticks folded`, timeoutMs: 20_000 },
  )
  t.ok(folded[0]! > 0 && folded[1]! > 0, `the queue group split the ticks (${folded.join(' + ')}), each folded once`)
  await ingestor.stop()
  await Promise.all(replicas.map((replica) => replica.writer.stop()))

  const expectEveryResolution = async (baseUrl: string, when: string) => {
    for (const pair of PAIRS) {
      for (const resolution of OHLC_RESOLUTIONS) {
        const { candles, pages } = await readAllPages(baseUrl, pair, resolution)
        t.strictSame(candles, expectedCandles(ticks, pair, resolution), `${when}: ${pair} at ${resolution}`)
        if (resolution === '1') t.ok(pages > 1, `${when}: ${pair}'s ${candles.length} minutes came in ${pages} pages`)
      }
    }
  }
  const edgeRedis = await readyRedis()
  const edge = await serveRoutes(ohlcRoutes({ store: redisCandleStore({ redis: edgeRedis, keyPrefix, keepPerResolution: 20_160 }) }))
  await expectEveryResolution(edge.baseUrl, 'live')
  edge.close()
  await Promise.all([edgeRedis, ...replicas.map((replica) => replica.redis)].map((redis) => redis.quit()))
  await Promise.all([ingestBus, ...replicas.map((replica) => replica.bus)].map((bus) => bus.close()))

  // the same Redis data directory and append-only file, a new process
  await redisServer.stop()
  await redisServer.start()
  const restartedRedis = await readyRedis()
  t.teardown(() => restartedRedis.quit())
  const restartedEdge = await serveRoutes(
    ohlcRoutes({ store: redisCandleStore({ redis: restartedRedis, keyPrefix, keepPerResolution: 20_160 }) }),
  )
  t.teardown(restartedEdge.close)
  await expectEveryResolution(restartedEdge.baseUrl, 'after the restart')
})
