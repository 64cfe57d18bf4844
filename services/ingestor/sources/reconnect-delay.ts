// How long to wait before reconnecting to an upstream stream: exponential backoff with jitter.

export interface ReconnectPolicy {
  /** the ceiling of the first wait */
  initialDelayMs: number
  /** no wait exceeds this */
  maxDelayMs: number
}

/** Caps the exponent so the doubling cannot overflow to Infinity (0 × Infinity would be NaN). */
const MAX_DOUBLINGS = 30

/**
 * The wait before reconnect attempt `failures + 1`, after `failures` consecutive failed attempts (0 for the
 * first retry). The ceiling doubles with each failure up to `maxDelayMs`; the wait is drawn uniformly from
 * the upper half of it, so many clients dropped at once (an upstream restart) do not return in lockstep,
 * while each still backs off.
 */
export function reconnectDelayMs(failures: number, policy: ReconnectPolicy, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.initialDelayMs * 2 ** Math.min(failures, MAX_DOUBLINGS))
  return ceiling / 2 + (random() * ceiling) / 2
}
