/** Remembers the first successful result; a failure is not remembered, so the next call tries again. */
export function memoizeSuccess<T>(load: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | undefined
  return () => {
    pending ??= load().catch((error: unknown) => {
      pending = undefined
      throw error
    })
    return pending
  }
}
