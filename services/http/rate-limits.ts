import type { Redis } from 'ioredis'
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible'
import type { Logger } from '../../kit/logger.ts'
import { budgetKeyer } from './budget-keys.ts'
import { BUDGETS, type Budget, type BudgetName } from './budgets.ts'

export interface RateLimitDecision {
  allowed: boolean
  limit: number
  remaining: number
  /** whole seconds until the window resets */
  resetSeconds: number
}

export interface RateLimits {
  /** takes one point of the client's budget; the client counts by its budget key (see keyOf) */
  check(budget: BudgetName, clientIp: string): Promise<RateLimitDecision>
  /**
   * gives back the point a check took, for an answer that was not the client's doing: the budget as it then
   * stands, or undefined when the store failed and the point stays taken
   */
  refund(budget: BudgetName, clientIp: string): Promise<RateLimitDecision | undefined>
  /** what a client address is counted by: the IPv4 address, or the configured IPv6 prefix */
  keyOf(clientIp: string): string
  /** 'redis' when budgets are shared between replicas */
  readonly store: 'redis' | 'memory' | 'disabled'
}

export interface RateLimitOptions {
  /** shares every budget between replicas; memory (per process) otherwise */
  redis?: Redis
  /** a prefix for the Redis keys (per deployment, or per test) */
  keyPrefix?: string
  /** false lifts every limit (for benches); responses then carry no x-ratelimit headers */
  enabled?: boolean
  /** IPv6 clients are counted by this prefix length (64 by default) */
  ipv6PrefixBits?: number
  /** figures configured in place of the table's (the stream's upgrade budget) */
  figures?: Partial<Record<BudgetName, Pick<Budget, 'points'>>>
  logger: Logger
}

/**
 * Fixed-window budgets from rate-limiter-flexible, in Redis or in memory, counted per budget key: every
 * spelling of an address, and every address of one IPv6 prefix, draw on one budget.
 */
export function createRateLimits(options: RateLimitOptions): RateLimits {
  const keyOf = budgetKeyer(options.ipv6PrefixBits)
  if (options.enabled === false) {
    const open: RateLimitDecision = { allowed: true, limit: 0, remaining: 0, resetSeconds: 0 }
    return { store: 'disabled', keyOf, check: async () => open, refund: async () => open }
  }
  const log = options.logger.child({ module: 'rate-limits' })
  const limiters = new Map<BudgetName, RateLimiterAbstract>()
  const fallbacks = new Map<BudgetName, RateLimiterMemory>()
  const figures = new Map<BudgetName, Budget>()
  for (const [name, tabled] of Object.entries(BUDGETS) as Array<[BudgetName, Budget]>) {
    const budget = { ...tabled, ...options.figures?.[name] }
    figures.set(name, budget)
    const common = { points: budget.points, duration: budget.windowSeconds, keyPrefix: `${options.keyPrefix ?? 'rl'}:${name}` }
    const memory = new RateLimiterMemory(common)
    fallbacks.set(name, memory)
    limiters.set(
      name,
      options.redis && !budget.perReplica
        ? // while Redis is unreachable each replica falls back to its own memory budget
          new RateLimiterRedis({ ...common, storeClient: options.redis, insuranceLimiter: memory, rejectIfRedisNotReady: true })
        : memory,
    )
  }

  return {
    store: options.redis ? 'redis' : 'memory',
    keyOf,
    async check(budgetName, clientIp) {
      const { points: limit, windowSeconds } = figures.get(budgetName)!
      const key = keyOf(clientIp)
      try {
        const result = await withFallback(limiters.get(budgetName)!.consume(key), () => fallbacks.get(budgetName)!.consume(key))
        return { allowed: true, limit, remaining: result.remainingPoints, resetSeconds: secondsUntil(result) }
      } catch (outcome) {
        if (outcome instanceof RateLimiterRes) return { allowed: false, limit, remaining: 0, resetSeconds: secondsUntil(outcome) }
        // the store failed and so did its insurance: serve rather than refuse everyone
        log.error({ err: outcome, budget: budgetName }, 'rate-limit store failed, request let through')
        return { allowed: true, limit, remaining: limit, resetSeconds: windowSeconds }
      }
    },
    async refund(budgetName, clientIp) {
      const { points: limit } = figures.get(budgetName)!
      const key = keyOf(clientIp)
      try {
        const result = await withFallback(limiters.get(budgetName)!.reward(key, 1), () => fallbacks.get(budgetName)!.reward(key, 1))
        // a window that ended between the check and the refund starts over: never more than the limit left
        return { allowed: true, limit, remaining: Math.min(limit, result.remainingPoints), resetSeconds: secondsUntil(result) }
      } catch (failure) {
        log.error({ err: failure, budget: budgetName }, 'rate-limit refund failed, the point stays taken')
        return undefined
      }
    },
  }
}

function secondsUntil(result: RateLimiterRes): number {
  return Math.max(1, Math.ceil(result.msBeforeNext / 1000))
}

/** How long a budget check may wait for Redis: a command sent as the connection drops is otherwise queued until it is back. */
const STORE_TIMEOUT_MS = 500

/**
 * The store's answer, or the memory budget's when the store has not answered in time. When the timer fires
 * the fallback waits one more turn (setImmediate runs after the event loop's poll phase): if this process was
 * busy past the timeout, the store's answer may already be waiting on the socket, and it is still in time.
 */
function withFallback(store: Promise<RateLimiterRes>, memory: () => Promise<RateLimiterRes>): Promise<RateLimiterRes> {
  let timer: NodeJS.Timeout | undefined
  let afterPoll: NodeJS.Immediate | undefined
  const late = new Promise<RateLimiterRes>((resolve, reject) => {
    timer = setTimeout(() => (afterPoll = setImmediate(() => void memory().then(resolve, reject))), STORE_TIMEOUT_MS)
  })
  store.catch(() => {}) // answered late, or failed after the memory budget decided
  return Promise.race([store, late]).finally(() => {
    clearTimeout(timer)
    clearImmediate(afterPoll)
  })
}
