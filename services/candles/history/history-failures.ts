// What a failed history fetch becomes: across replicas (a waiting replica rethrows the caller's failure)
// and at the HTTP boundary (the upstream-proxy shape's statuses: 502, 503, 504).

import { ServiceError } from '../../../kit/errors.ts'
import { HistoryBudgetSpent } from './call-budget.ts'
import type { FailureCodec } from './history-ledger.ts'
import { HistoryCallFailure, type HistoryCallFailureKind } from './udf-history-client.ts'

type EncodedFailure = { budget: number } | { kind: HistoryCallFailureKind; message: string }

export const historyFailureCodec: FailureCodec = {
  encode(error): EncodedFailure {
    if (error instanceof HistoryBudgetSpent) return { budget: error.retryAfterSeconds }
    if (error instanceof HistoryCallFailure) return { kind: error.kind, message: error.message }
    return { kind: 'network_error', message: 'failed' }
  },
  decode(encoded) {
    const failure = encoded as EncodedFailure
    return 'budget' in failure ? new HistoryBudgetSpent(failure.budget) : new HistoryCallFailure(failure.kind, failure.message)
  },
}

/** The client's error for a fetch that failed; anything that is not the source's (the store's own 502) passes through. */
export function historyServiceError(error: unknown, timeoutMs: number): unknown {
  if (error instanceof HistoryBudgetSpent) return new ServiceError('upstream_throttled', error.message, { cause: error })
  const timedOut =
    (error instanceof HistoryCallFailure && error.kind === 'timeout') || (error instanceof DOMException && error.name === 'TimeoutError')
  if (timedOut)
    return new ServiceError('upstream_timeout', `the history source did not answer within ${timeoutMs} ms; retry shortly`, { cause: error })
  if (error instanceof HistoryCallFailure)
    return new ServiceError('upstream_unavailable', `the history source ${error.message}; retry shortly`, { cause: error })
  return error
}
