import type { Redis } from 'ioredis'
import { DEFAULT_KEEP_PER_RESOLUTION, type CandleStore } from './candle-store.ts'
import { memoryCandleStore } from './memory-candle-store.ts'
import { redisCandleStore } from './redis-candle-store.ts'

export interface CandleStoreOptions {
  /** keeps candles in Redis (they survive restarts, replicas share them); in this process's memory otherwise */
  redis?: Redis
  /** prefix of the Redis keys (per deployment, or per test) */
  keyPrefix: string
  /** how many of its newest candles each resolution keeps per pair (default 20,160: 14 days of minutes) */
  keepPerResolution?: number
}

export function createCandleStore(options: CandleStoreOptions): CandleStore {
  const keepPerResolution = options.keepPerResolution ?? DEFAULT_KEEP_PER_RESOLUTION
  return options.redis
    ? redisCandleStore({ redis: options.redis, keyPrefix: options.keyPrefix, keepPerResolution })
    : memoryCandleStore({ keepPerResolution })
}
