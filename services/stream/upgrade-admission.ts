import { ServiceError } from '../../kit/errors.ts'

export interface UpgradeAdmissionOptions {
  /** upgrades this replica admits per second, over every client together */
  perSecond: number
  /** upgrades admitted at once before the rate applies (a full bucket) */
  burst: number
  /** the longest Retry-After told to a refused client */
  maxRetrySeconds: number
  /** [0, 1): the jitter's source; a seeded one in tests */
  random?: () => number
  /** ms, monotonic */
  now?: () => number
}

/**
 * The replica's upgrade admission rate: a token bucket over every client together, so that a reconnect
 * storm (every client of a restarted edge arriving within a second) is spread out instead of every
 * snapshot being written at once. A refused upgrade gets 503 with a `Retry-After` drawn uniformly from
 * 1 second to a window that grows with the clients recently refused and still to come back (spread at
 * the admission rate, twice over), capped at `maxRetrySeconds`: clients told to retry do not return together.
 */
export class UpgradeAdmission {
  private tokens: number
  /** refused clients expected back, drained at the admission rate */
  private backlog = 0
  private updatedAt: number
  private readonly random: () => number
  private readonly now: () => number

  constructor(private readonly options: UpgradeAdmissionOptions) {
    this.random = options.random ?? Math.random
    this.now = options.now ?? (() => performance.now())
    this.tokens = options.burst
    this.updatedAt = this.now()
  }

  /** undefined when the upgrade may go on; else the 503 (`at_capacity`, with its Retry-After) to answer with. */
  refusal(): ServiceError | undefined {
    const now = this.now()
    const refill = ((now - this.updatedAt) / 1000) * this.options.perSecond
    this.updatedAt = now
    this.tokens = Math.min(this.options.burst, this.tokens + refill)
    this.backlog = Math.max(0, this.backlog - refill)
    if (this.tokens >= 1) {
      this.tokens--
      return undefined
    }
    this.backlog++
    const window = Math.min(this.options.maxRetrySeconds, Math.max(1, Math.ceil((2 * this.backlog) / this.options.perSecond)))
    const retryAfterSeconds = Math.min(this.options.maxRetrySeconds, 1 + Math.floor(this.random() * window))
    const message = `this replica admits ${this.options.perSecond} stream upgrades per second: retry in ${retryAfterSeconds} seconds`
    return new ServiceError('at_capacity', message, {
      details: { retryAfterSeconds, limit: { upgradesPerSecond: this.options.perSecond } },
      retryAfterSeconds,
    })
  }
}
