/**
 * The per-socket budget of client messages (spec 8): a fixed window on the socket's own data. A
 * RateLimiterMemory would add a keyed map shared by every socket and a promise per message; one socket
 * needs only a counter and the window's start.
 */
export class MessageBudget {
  private windowStartedAt = 0
  private used = 0

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  /** Counts one message; returns 0 when it is within budget, else the whole seconds until the window resets. */
  take(now: number): number {
    if (now - this.windowStartedAt >= this.windowMs) {
      this.windowStartedAt = now
      this.used = 0
    }
    if (this.used < this.limit) {
      this.used++
      return 0
    }
    return Math.max(1, Math.ceil((this.windowStartedAt + this.windowMs - now) / 1000))
  }
}
