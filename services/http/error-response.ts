import { STATUS_CODES } from 'node:http'
import { ServiceError, type ErrorCode } from '../../kit/errors.ts'
import type { FrameworkError } from '../../schemas/errors.ts'

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

/** The HTTP status and framework-shape body (spec 7) for an error; anything unexpected is a 500. */
export function errorResponse(error: unknown): { status: number; body: FrameworkError } {
  if (!(error instanceof ServiceError)) {
    return { status: 500, body: { error: STATUS_CODES[500]!, message: 'unexpected error' } }
  }
  const status = STATUS_OF[error.code]
  const body: FrameworkError = { error: STATUS_CODES[status]!, message: error.message }
  if (error.issues) body.issues = error.issues
  if (error.details !== undefined) body.details = error.details
  return { status, body }
}
