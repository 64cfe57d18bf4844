// The public Hermes's request limit: a number of requests per window per client IP, every endpoint
// counted together; a client over it gets 429 for a penalty period, whatever it sends meanwhile.

export interface RateLimitOptions {
  requests: number
  windowMs: number
  penaltyMs: number
  /** sent as Retry-After on each 429 when set (the public endpoint's documentation mentions none) */
  retryAfterSeconds?: number
}

/** 30 requests every 10 seconds per IP, then 429 for the next 60 seconds. */
export const PUBLIC_RATE_LIMIT: RateLimitOptions = { requests: 30, windowMs: 10_000, penaltyMs: 60_000 }

export class HermesRateLimit {
  private readonly recent = new Map<string, number[]>()
  private readonly blockedUntil = new Map<string, number>()

  constructor(private readonly options: RateLimitOptions) {}

  /** Counts the request; returns the refusal when the client is over the limit or still paying for it. */
  check(ip: string, now: number): { retryAfterSeconds: number | undefined } | undefined {
    const refusal = { retryAfterSeconds: this.options.retryAfterSeconds }
    if ((this.blockedUntil.get(ip) ?? 0) > now) return refusal
    const times = (this.recent.get(ip) ?? []).filter((at) => now - at < this.options.windowMs)
    times.push(now)
    this.recent.set(ip, times)
    if (times.length <= this.options.requests) return undefined
    this.blockedUntil.set(ip, now + this.options.penaltyMs)
    this.recent.delete(ip)
    return refusal
  }
}
