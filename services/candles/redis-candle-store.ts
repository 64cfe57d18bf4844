// Candles in Redis: one sorted set per pair and resolution (score = period start), updated by one Lua
// script so that a merge is atomic and replicas writing the same pair cannot corrupt a candle.

import type { Redis } from 'ioredis'
import { OHLC_RESOLUTIONS, type OhlcResolution } from '../../schemas/ohlc.ts'
import type { Candle } from './candle.ts'
import type { CandleStore } from './candle-store.ts'
import { luaScript, redisCommands } from './redis-commands.ts'
import { RESOLUTION_SECONDS } from './resolutions.ts'

const MERGE_SCRIPT = luaScript(new URL('./merge-candles.lua', import.meta.url))
const INSERT_SCRIPT = luaScript(new URL('./insert-candles.lua', import.meta.url))
const WIDTHS = OHLC_RESOLUTIONS.map((resolution) => RESOLUTION_SECONDS[resolution])

export interface RedisCandleStoreOptions {
  redis: Redis
  /** prefix of every key (per deployment, or per test) */
  keyPrefix: string
  keepPerResolution: number
  /** a command not answered within this long counts as the store being unreachable (default 2000 ms) */
  timeoutMs?: number
}

export function redisCandleStore(options: RedisCandleStoreOptions): CandleStore {
  const { redis, keyPrefix, keepPerResolution } = options
  const timeoutMs = options.timeoutMs ?? 2000
  // the hash tag {pair} keeps one pair's keys on one Redis Cluster slot, as a multi-key script needs
  const keyOf = (pair: string, resolution: OhlcResolution) => `${keyPrefix}:{${pair}}:${resolution}`

  const { run, evalScript } = redisCommands(redis, timeoutMs)

  const mergeMinutes = (pair: string, minuteCandles: readonly Candle[], mode: 'all' | 'absent') => {
    const keys = OHLC_RESOLUTIONS.map((resolution) => keyOf(pair, resolution))
    const args = [keepPerResolution, mode, ...WIDTHS, ...minuteCandles.flatMap(encodeCandle)].map(String)
    return evalScript(MERGE_SCRIPT, keys, args).then(() => undefined)
  }

  return {
    kind: 'redis',
    merge: (pair, minuteCandles) => mergeMinutes(pair, minuteCandles, 'all'),
    mergeAbsentMinutes: (pair, minuteCandles) => mergeMinutes(pair, minuteCandles, 'absent'),
    insertAbsent(pair, resolution, candles) {
      const args = [keepPerResolution, ...candles.flatMap(encodeCandle)].map(String)
      return evalScript(INSERT_SCRIPT, [keyOf(pair, resolution)], args).then(() => undefined)
    },
    read(pair, resolution, fromSeconds, toSeconds, limit) {
      return run(async () => {
        const members = await redis.zrangebyscore(keyOf(pair, resolution), fromSeconds, `(${toSeconds}`, 'LIMIT', 0, limit)
        return members.map(decodeCandle)
      })
    },
    latestBefore(pair, resolution, beforeSeconds) {
      return run(async () => {
        const [member] = await redis.zrevrangebyscore(keyOf(pair, resolution), `(${beforeSeconds}`, '-inf', 'LIMIT', 0, 1)
        return member === undefined ? undefined : decodeCandle(member)
      })
    },
  }
}

/** The member's fields, in the order merge-candles.lua reads them. Numbers are written as JavaScript prints them, which reads back exactly. */
function encodeCandle(candle: Candle): number[] {
  return [candle.time, candle.open, candle.openAt, candle.high, candle.low, candle.close, candle.closeAt]
}

function decodeCandle(member: string): Candle {
  const [time, open, openAt, high, low, close, closeAt] = member.split('|').map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ]
  return { time, open, openAt, high, low, close, closeAt }
}
