// Ways the stand-in can misbehave, so that tests can see how a client copes with a failing source.

export const FAULTS = ['none', 'graphql-errors', 'http-500', 'hang', 'reset-mid-response', 'lagging'] as const

/**
 * - `none`: answer normally
 * - `graphql-errors`: HTTP 200 with only an `errors` array, as a subgraph that failed indexing answers
 * - `http-500`: HTTP 500 with a plain-text body
 * - `hang`: accept the request and never answer (until the stand-in closes)
 * - `reset-mid-response`: send the headers and half of the real body, then drop the connection
 * - `lagging`: answer normally, but `_meta` reports a head block LAG_SECONDS old
 */
export type Fault = (typeof FAULTS)[number]

export const LAG_SECONDS = 3600

export const INDEXING_ERROR_BODY = { errors: [{ message: 'indexing_error' }] }
