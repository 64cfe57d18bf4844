/** What decides the wait before the next connection attempt. */
export interface ReconnectDelayInput {
  /** failed attempts since the last snapshot (0 after a connection that worked) */
  attempt: number
  initialMs: number
  maxMs: number
  /** the server's Retry-After of a refused upgrade, when it gave one */
  retryAfterSeconds?: number
  /** [0, 1) */
  random: () => number
}

/**
 * Exponential backoff with full jitter: a wait drawn uniformly between 0 and a ceiling that doubles with
 * each failed attempt up to `maxMs`, so that clients dropped together do not come back together. A
 * Retry-After is a floor: the wait is at least that, plus up to a second drawn at random, since many
 * clients refused in the same instant get the same whole number of seconds.
 */
export function reconnectDelayMs(input: ReconnectDelayInput): number {
  const ceiling = Math.min(input.maxMs, input.initialMs * 2 ** input.attempt)
  const jittered = input.random() * ceiling
  if (!input.retryAfterSeconds) return jittered
  return Math.max(jittered, input.retryAfterSeconds * 1000 + input.random() * 1000)
}
