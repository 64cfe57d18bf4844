// fast-check within time budgets: a property whose runs, or the shrinking of whose failure, would outlast
// the test file's timeout is reported as a failure with its seed and input instead of being cut off unheard.

import fc from 'fast-check'

export interface CheckBudget {
  seed: number
  numRuns: number
  /** a run that has not settled by then fails */
  runTimeoutMs: number
  /** every run, up to the first failure; not finishing them all in time is a failure too */
  runsBudgetMs: number
  /** shrinking the first failure */
  shrinkBudgetMs: number
}

/**
 * Checks an async property like `fc.assert`, in two bounded phases: the runs up to the first failure, then
 * that failure replayed from its path and shrunk for at most `shrinkBudgetMs`. Shrinking is where time
 * runs away: each attempt is a whole run, and a failure that does not recur makes fast-check try every
 * candidate. Throws fast-check's report (the seed, the path to replay, the input as far as it shrank); a
 * failure that does not recur on replay is reported as first found, saying so.
 */
export async function assertWithinBudget<T>(property: fc.IAsyncProperty<T>, budget: CheckBudget): Promise<void> {
  const common = { seed: budget.seed, timeout: budget.runTimeoutMs, markInterruptAsFailure: true }
  const found = await fc.check(property, {
    ...common,
    numRuns: budget.numRuns,
    endOnFailure: true,
    interruptAfterTimeLimit: budget.runsBudgetMs,
  })
  if (!found.failed) return
  // interrupted before any failure: fast-check's report says how many runs were done in the budget
  if (found.counterexamplePath === null) throw new Error(report(found))
  const shrunk = await fc.check(property, {
    ...common,
    path: found.counterexamplePath,
    numRuns: 1,
    endOnFailure: false,
    interruptAfterTimeLimit: budget.shrinkBudgetMs,
  })
  if (shrunk.failed) throw new Error(report(shrunk))
  throw new Error(`${report(found)}\n\nIt did not fail again when replayed, so it was not shrunk.`)
}

/** fast-check's report, then what the failing run threw (the report of an asynchronous property leaves it out). */
const report = <T>(details: fc.RunDetails<T>): string => {
  const message = fc.defaultReportMessage(details) ?? 'the property failed'
  const thrown = details.errorInstance
  const error = thrown instanceof Error ? thrown.message : (JSON.stringify(thrown) as string | undefined)
  return error === undefined ? message : `${error}\n\n${message}`
}
