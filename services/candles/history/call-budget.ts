// How many calls the service may make to the history source: a fixed window of calls per minute,
// shared by every replica through Redis (in memory without it). Requests may spend all of it; the
// background backfill and repair stop at half, so that a backfill never starves a chart.

import type { Redis } from 'ioredis'
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible'

export type CallPriority = 'request' | 'background'

/** No call was made: the window's calls are spent (for this priority). */
export class HistoryBudgetSpent extends Error {
  override readonly name = 'HistoryBudgetSpent'

  constructor(readonly retryAfterSeconds: number) {
    super(`the history source's call budget is spent; retry in ${retryAfterSeconds} s`)
  }
}

export interface CallBudget {
  /** takes one call, or rejects with HistoryBudgetSpent */
  take(priority: CallPriority): Promise<void>
}

const KEY = 'calls'

export function callBudget(options: { callsPerMinute: number; redis?: Redis; keyPrefix: string }): CallBudget {
  const common = { points: options.callsPerMinute, duration: 60, keyPrefix: `${options.keyPrefix}:history-budget` }
  const memory = new RateLimiterMemory(common)
  const limiter: RateLimiterAbstract = options.redis
    ? new RateLimiterRedis({ ...common, storeClient: options.redis, insuranceLimiter: memory, rejectIfRedisNotReady: true })
    : memory
  const backgroundShare = Math.floor(options.callsPerMinute / 2)
  return {
    async take(priority) {
      if (priority === 'background') {
        const state = await limiter.get(KEY)
        if (state && state.consumedPoints >= backgroundShare) throw new HistoryBudgetSpent(Math.ceil(state.msBeforeNext / 1000))
      }
      try {
        await limiter.consume(KEY, 1)
      } catch (refusal) {
        if (refusal instanceof RateLimiterRes) throw new HistoryBudgetSpent(Math.max(1, Math.ceil(refusal.msBeforeNext / 1000)))
        throw refusal
      }
    },
  }
}
