// Parts of a start that run after the process serves (onboarding's chains, the embedded indexed source):
// requests await them, each with a deadline.

/**
 * `promise`, marked as awaited later: until a request awaits it, its rejection must not count as an
 * unhandled rejection (each request that awaits it gets the error).
 */
export function awaitedLater<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => undefined)
  return promise
}

/** `promise`'s outcome, or `timedOut()`'s error if it has not settled within `timeoutMs`. */
export function settledWithin<T>(promise: Promise<T>, timeoutMs: number, timedOut: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(timedOut()), timeoutMs)
  })
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer))
}

export type StartState = 'starting' | 'ready' | 'unavailable'

/** Where a part of the start is, for readiness reports: `starting` until `promise` settles, then `ready` or `unavailable`. */
export function startState(promise: Promise<unknown>): () => StartState {
  let state: StartState = 'starting'
  promise.then(
    () => (state = 'ready'),
    () => (state = 'unavailable'),
  )
  return () => state
}
