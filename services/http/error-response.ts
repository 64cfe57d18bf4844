import { ServiceError, type ErrorCode } from '../../kit/errors.ts'
import { errorBody, type ErrorShape } from './error-bodies.ts'

const STATUS_OF: Record<ErrorCode, number> = {
  validation_failed: 400,
  onboarding_rejected: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  payload_too_large: 413,
  rate_limited: 429,
  internal: 500,
  relay_failed: 500,
  upstream_unavailable: 502,
  /** an upstream we proxy did not answer within our deadline */
  upstream_timeout: 504,
  /** our own budget of calls to an upstream is spent */
  upstream_throttled: 503,
  no_ticks_yet: 503,
  not_tradeable: 503,
  upgrade_required: 426,
  at_capacity: 503,
  config_invalid: 500,
}

export interface ErrorResponse {
  status: number
  body: object
  /** the headers the error names (`Retry-After` from its wait, and its own); none for an unexpected error */
  headers?: Record<string, string>
}

/**
 * The HTTP status, body (spec 7) and headers for an error, in the route's shape; anything unexpected is a
 * 500. Every failure the service answers over HTTP is written from here.
 */
export function errorResponse(error: unknown, shape: ErrorShape = 'framework'): ErrorResponse {
  if (!(error instanceof ServiceError)) return { status: 500, body: errorBody(shape, 500, 'unexpected error') }
  const status = STATUS_OF[error.code]
  const extras = {
    ...(error.issues && { issues: error.issues }),
    ...(error.details !== undefined && { details: error.details }),
    ...(error.stale && { stale: error.stale }),
  }
  const body = errorBody(shape, status, error.message, extras)
  if (error.retryAfterSeconds === undefined && error.headers === undefined) return { status, body }
  const headers = { ...error.headers, ...(error.retryAfterSeconds !== undefined && { 'retry-after': String(error.retryAfterSeconds) }) }
  return { status, body, headers }
}
