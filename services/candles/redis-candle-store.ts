// Candles in Redis: one sorted set per pair and resolution (score = period start), updated by one Lua
// script so that a merge is atomic and replicas writing the same pair cannot corrupt a candle.

import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { ReplyError, type Redis } from 'ioredis'
import { ServiceError } from '../../kit/errors.ts'
import { OHLC_RESOLUTIONS, type OhlcResolution } from '../../schemas/ohlc.ts'
import type { Candle } from './candle.ts'
import type { CandleStore } from './candle-store.ts'
import { RESOLUTION_SECONDS } from './resolutions.ts'

const MERGE_SCRIPT = readFileSync(new URL('./merge-candles.lua', import.meta.url), 'utf8')
const MERGE_SCRIPT_SHA = createHash('sha1').update(MERGE_SCRIPT).digest('hex')
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

  /** Runs a command, turning an unreachable or silent Redis into ServiceError 'upstream_unavailable'. */
  const run = async <T>(command: () => Promise<T>): Promise<T> => {
    if (redis.status !== 'ready') throw unavailable(new Error(`Redis connection is ${redis.status}`))
    try {
      return await withTimeout(command(), timeoutMs)
    } catch (error) {
      // an error Redis itself replied with is ours to fix, not an outage
      throw error instanceof ReplyError ? error : unavailable(error)
    }
  }

  const evalMerge = async (keys: string[], args: string[]) => {
    try {
      await redis.evalsha(MERGE_SCRIPT_SHA, keys.length, ...keys, ...args)
    } catch (error) {
      // the script is cached by Redis after the first EVAL; a restarted Redis has forgotten it
      if (!(error instanceof ReplyError && error instanceof Error && error.message.startsWith('NOSCRIPT'))) throw error
      await redis.eval(MERGE_SCRIPT, keys.length, ...keys, ...args)
    }
  }

  return {
    kind: 'redis',
    merge(pair, minuteCandles) {
      const keys = OHLC_RESOLUTIONS.map((resolution) => keyOf(pair, resolution))
      const args = [keepPerResolution, ...WIDTHS, ...minuteCandles.flatMap(encodeCandle)].map(String)
      return run(() => evalMerge(keys, args))
    },
    read(pair, resolution, fromSeconds, toSeconds, limit) {
      return run(async () => {
        const members = await redis.zrangebyscore(keyOf(pair, resolution), fromSeconds, `(${toSeconds}`, 'LIMIT', 0, limit)
        return members.map(decodeCandle)
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

function unavailable(cause: unknown): ServiceError {
  return new ServiceError('upstream_unavailable', 'the candle store cannot be reached; retry shortly', { cause })
}

function withTimeout<T>(promise: Promise<T>, timeoutMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs)
  })
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer))
}
