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
  | 'upgrade_required'
  | 'at_capacity'
  | 'upstream_unavailable'
  | 'upstream_timeout'
  | 'upstream_throttled'
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
  /** how long the client should wait before trying again; sent as `Retry-After` */
  retryAfterSeconds?: number
  /** other response headers the answer needs (`Allow` on a 405, `Upgrade` on a 426) */
  headers?: Readonly<Record<string, string>>
  /** the body says the feed is stale (`stale: true`, the spec's 503 of `GET /v1/prices` before the first tick) */
  stale?: true
}

export class ServiceError extends Error {
  override readonly name = 'ServiceError'
  readonly code: ErrorCode
  readonly issues: unknown[] | undefined
  readonly details: unknown
  readonly retryAfterSeconds: number | undefined
  readonly headers: Readonly<Record<string, string>> | undefined
  readonly stale: true | undefined

  constructor(code: ErrorCode, message: string, options: ServiceErrorOptions = {}) {
    super(message, { cause: options.cause })
    this.code = code
    this.issues = options.issues
    this.details = options.details
    this.retryAfterSeconds = options.retryAfterSeconds
    this.headers = options.headers
    this.stale = options.stale
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
