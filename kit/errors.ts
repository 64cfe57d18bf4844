// One error class for the whole service: a stable `code`, a short message and an optional cause.
// The HTTP status and body shape are chosen from the code at the HTTP boundary only.

export type ErrorCode =
  | 'validation_failed'
  | 'not_found'
  | 'method_not_allowed'
  | 'payload_too_large'
  | 'rate_limited'
  | 'unauthorized'
  | 'forbidden'
  | 'no_ticks_yet'
  | 'upstream_unavailable'
  | 'not_tradeable'
  | 'onboarding_rejected'
  | 'relay_failed'
  | 'config_invalid'
  | 'internal'

export interface ServiceErrorOptions {
  cause?: unknown
  /** raw validation issues; only with `validation_failed` */
  issues?: unknown[]
  /** structured detail returned to the client */
  details?: unknown
}

export class ServiceError extends Error {
  override readonly name = 'ServiceError'
  readonly code: ErrorCode
  readonly issues: unknown[] | undefined
  readonly details: unknown

  constructor(code: ErrorCode, message: string, options: ServiceErrorOptions = {}) {
    super(message, { cause: options.cause })
    this.code = code
    this.issues = options.issues
    this.details = options.details
  }
}

/**
 * A failed exchange with an outside system, of one kind from a closed list (the kinds double as a metric
 * label). Each caller declares a subclass with its own kinds and name; the subclass is not generic, so an
 * `instanceof` check narrows `kind` to that list.
 */
export abstract class ExchangeFailure<Kind extends string> extends Error {
  constructor(
    readonly kind: Kind,
    message: string,
    options: { cause?: unknown } = {},
  ) {
    super(message, options)
  }
}
