import { STATUS_CODES } from 'node:http'
import type { FrameworkError, UpstreamProxyError } from '../../schemas/errors.ts'

// The spec's two error body shapes (spec 7), and graph-node's for the subgraph door. Every failure is a
// ServiceError (or an unexpected error) answered by the request pipeline through errorResponse
// (error-response.ts), which builds its body here: REST routes, the stream's upgrade refusals and its 426,
// the snapshot's 503 and the onboarding ceilings alike. The door alone answers graph-node's shape itself.

/**
 * Which of the two shapes a route answers its failures in; `graphql` for the subgraph door, as graph-node
 * answers; `udf` for the TradingView datafeed, as UDF clients read errors (`{ s: "error", errmsg }`).
 */
export type ErrorShape = 'framework' | 'upstream-proxy' | 'graphql' | 'udf'

export interface FrameworkExtras {
  /** raw validation issues; validation failures only */
  issues?: unknown[]
  details?: unknown
  /** `GET /v1/prices` before the first tick adds `stale: true` */
  stale?: true
}

/** The framework shape: `error` is the status name, `message` says what happened. */
function frameworkErrorBody(status: number, message: string, extras: FrameworkExtras = {}): FrameworkError {
  const body: FrameworkError = { error: STATUS_CODES[status] ?? 'Error', message }
  if (extras.issues) body.issues = extras.issues
  if (extras.details !== undefined) body.details = extras.details
  if (extras.stale) body.stale = true
  return body
}

/** The upstream-proxy shape (OHLC failures): `error` is the human message itself. */
function upstreamProxyErrorBody(message: string): UpstreamProxyError {
  return { error: message }
}

/** graph-node's error body (the subgraph door): `{ "errors": [{ "message": ... }] }`, which GraphQL clients read. */
export function graphqlErrorBody(message: string): { errors: Array<{ message: string }> } {
  return { errors: [{ message }] }
}

/** A failure's body in the given shape. */
export function errorBody(
  shape: ErrorShape,
  status: number,
  message: string,
  extras: FrameworkExtras = {},
): FrameworkError | UpstreamProxyError | ReturnType<typeof graphqlErrorBody> | { s: 'error'; errmsg: string } {
  if (shape === 'graphql') return graphqlErrorBody(message)
  if (shape === 'udf') return { s: 'error', errmsg: message }
  return shape === 'upstream-proxy' ? upstreamProxyErrorBody(message) : frameworkErrorBody(status, message, extras)
}
