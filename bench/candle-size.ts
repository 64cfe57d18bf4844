// What candles cost to keep: one pair-year of candles at each resolution, in Redis (MEMORY USAGE of the
// filled sorted set, the store's own key) and in the memory store (heap growth), for candles of our own
// ticks (mids as the simulator prints them, tick times inside the period) and from the history source
// (prices rounded to the feed's exponent, whole-period times). Prints a table and writes JSON.
// Usage: npm run bench:candle-size [-- --days 365]
import { randomUUID } from 'node:crypto'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { Redis } from 'ioredis'
import { parseCommandLine } from '../kit/command-line.ts'
import { DEFAULT_KEEP_PER_RESOLUTION } from '../services/candles/candle-store.ts'
import type { Candle } from '../services/candles/candle.ts'
import { memoryCandleStore } from '../services/candles/memory-candle-store.ts'
import { redisCandleStore } from '../services/candles/redis-candle-store.ts'
import { RESOLUTION_SECONDS } from '../services/candles/resolutions.ts'
import { OHLC_RESOLUTIONS, type OhlcResolution } from '../schemas/ohlc.ts'
import { startRedis } from '../test/support/servers.ts'
import { printTable, writeResult } from './report.ts'

const command = parseCommandLine({
  usage: 'npm run bench:candle-size -- [options]',
  summary: 'What a pair-year of candles costs at each resolution: bytes in Redis (MEMORY USAGE) and in the memory store.',
  options: { days: { type: 'string', default: '365', value: 'N', description: 'days of candles measured, scaled to a year' } },
})
const days = command.number('days', { min: 1, integer: true })
setFlagsFromString('--expose-gc')
const gc = runInNewContext('gc') as () => void

type Kind = 'own' | 'history'
/** A year of candles of one resolution, as the writer or the history source would store them. */
function candles(resolution: OhlcResolution, kind: Kind, count: number): Candle[] {
  const width = RESOLUTION_SECONDS[resolution]
  const start = Math.floor(Date.now() / 1000 / width) * width - count * width
  let mid = 95_000 + Math.random()
  return Array.from({ length: count }, (_, index) => {
    const time = start + index * width
    const prices = [0, 1, 2, 3].map(() => (mid *= 1 + (Math.random() - 0.5) * 0.001))
    const [open, a, b, close] = kind === 'own' ? prices : prices.map((price) => Number(price.toFixed(8)))
    const [openAt, closeAt] = kind === 'own' ? [time + 3, time + width - 2] : [time, time + width - 1]
    return {
      time,
      open: open!,
      openAt,
      high: Math.max(open!, a!, b!, close!),
      low: Math.min(open!, a!, b!, close!),
      close: close!,
      closeAt,
    }
  })
}

const perYear = (resolution: OhlcResolution) => Math.round((365 * 86_400) / RESOLUTION_SECONDS[resolution])

/** The memory store's heap per candle: the same at every resolution (one object, a map entry, an array slot), so measured once on many. */
async function memoryBytesPerCandle(kind: Kind): Promise<number> {
  const count = 200_000
  gc()
  gc()
  const before = process.memoryUsage().heapUsed
  const store = memoryCandleStore({ keepPerResolution: count })
  // the store keeps the candle objects it is given: they are made inside the measured window
  await store.insertAbsent('BTC-USD', '1', candles('1', kind, count))
  gc()
  gc()
  const bytes = process.memoryUsage().heapUsed - before
  void (await store.read('BTC-USD', '1', 0, 1, 1))
  return bytes / count
}
const memoryPerCandle = { own: await memoryBytesPerCandle('own'), history: await memoryBytesPerCandle('history') }

const redisServer = await startRedis()
const redis = new Redis(redisServer.url)
await new Promise((resolve) => redis.once('ready', resolve))
const rows: Array<Record<string, string | number>> = []
for (const kind of ['own', 'history'] as const) {
  for (const resolution of OHLC_RESOLUTIONS) {
    // Redis encodes a small sorted set compactly: each resolution is measured at its own count
    const count = Math.max(1, Math.round((perYear(resolution) * days) / 365))
    const filled = candles(resolution, kind, count)
    const keyPrefix = `size${randomUUID().slice(0, 8)}`
    const store = redisCandleStore({ redis, keyPrefix, keepPerResolution: count })
    for (let index = 0; index < filled.length; index += 5000)
      await store.insertAbsent('BTC-USD', resolution, filled.slice(index, index + 5000))
    const key = `${keyPrefix}:{BTC-USD}:${resolution}`
    const redisPerCandle = Number(await redis.call('MEMORY', 'USAGE', key, 'SAMPLES', '0')) / count
    await redis.del(key)
    const year = perYear(resolution)
    const kept = Math.min(year, DEFAULT_KEEP_PER_RESOLUTION)
    rows.push({
      candles: kind,
      resolution,
      'candles per pair-year': year,
      'Redis bytes/candle': Math.round(redisPerCandle),
      'Redis MB per pair-year': Number(((redisPerCandle * year) / 1e6).toFixed(2)),
      'memory bytes/candle': Math.round(memoryPerCandle[kind]),
      'memory MB per pair-year': Number(((memoryPerCandle[kind] * year) / 1e6).toFixed(2)),
      'kept by default': kept,
      'Redis MB kept': Number(((redisPerCandle * kept) / 1e6).toFixed(2)),
    })
    console.log(Object.values(rows.at(-1)!).join('  '))
  }
}
printTable(rows)
const file = writeResult('candle-size', { days, keepPerResolution: DEFAULT_KEEP_PER_RESOLUTION, memoryPerCandle, rows })
console.log(`Redis measured on ${days} days of candles per resolution, scaled to a year; memory on 200,000 candles; written ${file}`)
await redis.quit()
await redisServer.dispose()
