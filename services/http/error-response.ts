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
  no_ticks_yet: 503,
  not_tradeable: 503,
  config_invalid: 500,
}

/** The HTTP status and body (spec 7) for an error, in the route's shape; anything unexpected is a 500. */
export function errorResponse(error: unknown, shape: ErrorShape = 'framework'): { status: number; body: object } {
  if (!(error instanceof ServiceError)) return { status: 500, body: errorBody(shape, 500, 'unexpected error') }
  const status = STATUS_OF[error.code]
  const extras = { ...(error.issues && { issues: error.issues }), ...(error.details !== undefined && { details: error.details }) }
  return { status, body: errorBody(shape, status, error.message, extras) }
}
