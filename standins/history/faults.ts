// Ways the stand-in can misbehave, so that tests can see how the service copes with a failing source.

export const FAULTS = ['none', 'http-500', 'hang', 'udf-error', 'malformed', 'reset'] as const

/**
 * Applies to `/{channel}/history` requests only (the other paths answer normally):
 * - `none`: answer normally
 * - `http-500`: HTTP 500 with a plain-text body, as a failing service behind a proxy answers
 * - `hang`: accept the request and never answer (until the stand-in closes)
 * - `udf-error`: HTTP 200 with the UDF error shape `{ s: "error", errmsg }`
 * - `malformed`: HTTP 200 with a body that is not JSON
 * - `reset`: drop the connection without answering
 */
export type Fault = (typeof FAULTS)[number]

export const UDF_ERROR_MESSAGE = 'internal error while reading history'
