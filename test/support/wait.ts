// Waiting on events with a deadline: tests never sleep to synchronise.

/**
 * How long a test waits for a process it started to say it is up. Generous on purpose: a deadline only
 * costs time when something is broken, and on a busy 2-core machine a cold start (module loading under
 * contention) can take many times its quiet figure.
 */
export const START_DEADLINE_MS = 60_000

/**
 * How long a test waits for an event by default: generous for the same reason (a NATS client's reconnect
 * alone takes 2 s and more on a busy machine); only a broken test spends it.
 */
export const EVENT_DEADLINE_MS = 15_000

/** Resolves with the first truthy value of `probe`, polling every `intervalMs`; rejects at the deadline. */
export async function waitFor<T>(
  probe: () => T | undefined | false | null | Promise<T | undefined | false | null>,
  options: { timeoutMs?: number; intervalMs?: number; what?: string } = {},
): Promise<T> {
  const deadline = Date.now() + (options.timeoutMs ?? EVENT_DEADLINE_MS)
  for (;;) {
    const value = await probe()
    if (value) return value
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${options.what ?? 'condition'}`)
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 10))
  }
}

/** Rejects if `promise` has not settled within `timeoutMs`. */
export function withDeadline<T>(promise: Promise<T>, timeoutMs: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)), timeoutMs)
  })
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer))
}
