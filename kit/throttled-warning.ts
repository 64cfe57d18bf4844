import type { Logger } from './logger.ts'

/**
 * Logs a recurring problem once per key per window, with how many were suppressed since, so a
 * broken upstream cannot flood the log while every occurrence is still counted in metrics.
 */
export function throttledWarning(log: Logger, message: string, windowMs = 10_000, level: 'warn' | 'error' = 'warn') {
  const lastLogged = new Map<string, { at: number; suppressed: number }>()
  return (key: string, fields: Record<string, unknown>) => {
    const now = Date.now()
    const entry = lastLogged.get(key)
    if (entry && now - entry.at < windowMs) {
      entry.suppressed++
      return
    }
    log[level]({ ...fields, key, suppressedSinceLast: entry?.suppressed ?? 0 }, message)
    lastLogged.set(key, { at: now, suppressed: 0 })
  }
}
