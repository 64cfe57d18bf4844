/**
 * Like Promise.all, but rejects (with the first failure) only after every promise has settled, so that whatever
 * the others started is known and can be stopped.
 */
export async function settleAll<T>(promises: Promise<T>[]): Promise<T[]> {
  const results = await Promise.allSettled(promises)
  const failure = results.find((result): result is PromiseRejectedResult => result.status === 'rejected')
  if (failure) throw failure.reason
  return results.map((result) => (result as PromiseFulfilledResult<T>).value)
}
