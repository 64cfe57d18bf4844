// Waiting on events with a deadline: tests never sleep to synchronise.
import { recordWait } from './wait-figures.ts'

// Every deadline in a test is a hang detector: it costs time only when something is broken, so it keeps at
// least 3 times the slowest time seen, named beside it. How long a start or an event takes is a figure a test
// may report (t.comment), not an assertion.

/**
 * How long a test waits for a process or server it started to say it is up. The slowest starts seen: the
 * edge-workers test's two service processes past 30 s on a loaded 2-core machine (2026-11-24), against a first
 * price after 1.1 s on a quiet one (bench/results-log.md); 120 s is 4 times 30 s.
 */
export const START_DEADLINE_MS = 120_000

/**
 * How long a test waits for an event by default. The slowest seen: a 3.5 MB answer read in more than 5 s in
 * CI's first minute on a slower 2-core machine (load average 30 to 40, the HTTP harness; docs/testing.md), and a
 * NATS client's reconnect takes 2 s and more on a busy machine; 20 s is 4 times 5 s.
 */
export const EVENT_DEADLINE_MS = 20_000

/**
 * Resolves with the first truthy value of `probe`, polling every `intervalMs`; rejects at the deadline, also
 * when the value came only after it (so a wait that resolves kept its deadline). `bound` names the documented
 * promise a deadline checks, where it is one and not a hang detector (its margin is then not the rule's 3).
 */
export async function waitFor<T>(
  probe: () => T | undefined | false | null | Promise<T | undefined | false | null>,
  options: { timeoutMs?: number; intervalMs?: number; what?: string; bound?: string } = {},
): Promise<T> {
  const [timeoutMs, what] = [options.timeoutMs ?? EVENT_DEADLINE_MS, options.what ?? 'condition']
  const [deadline, startedAt] = [Date.now() + timeoutMs, performance.now()]
  for (;;) {
    const value = await probe()
    if (Date.now() > deadline) {
      recordWait(what, timeoutMs, startedAt, false, options.bound)
      throw new Error(`timed out waiting for ${what}`)
    }
    if (value) {
      recordWait(what, timeoutMs, startedAt, true, options.bound)
      return value
    }
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 10))
  }
}

/** Rejects if `promise` has not settled within `timeoutMs`. */
export function withDeadline<T>(promise: Promise<T>, timeoutMs: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout
  const startedAt = performance.now()
  let kept = true
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      kept = false
      reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}`))
    }, timeoutMs)
  })
  return Promise.race([promise, deadline]).finally(() => {
    clearTimeout(timer)
    recordWait(what, timeoutMs, startedAt, kept)
  })
}
