import type { OriginAllowlist } from './origin-allowlist.ts'

// CORS for browsers calling the REST API from the origins the allowlist admits: the origin is echoed
// (never `*`, so the answer is per origin and caches must key on it: `Vary: Origin` on every response).

/** response headers a page may read besides the CORS-safelisted ones */
const EXPOSED = ['x-request-id', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'retry-after', 'location', 'etag']
/** request headers a page may send besides the CORS-safelisted ones */
const ALLOWED_REQUEST_HEADERS = ['content-type', 'if-none-match']
const PREFLIGHT_MAX_AGE_SECONDS = 600

export interface Cors {
  /** headers for an answer to a request with this Origin (only `vary` when the origin is not allowed) */
  answerHeaders(origin: string | undefined, host: string | undefined): Record<string, string>
  /**
   * the answer to a preflight (OPTIONS with Origin and Access-Control-Request-Method) for a path serving
   * `methods`; undefined for an OPTIONS request that is not a preflight
   */
  preflight(
    request: { origin: string | undefined; host: string | undefined; requestMethod: string | undefined },
    methods: readonly string[],
  ): { status: 204 | 403; headers: Record<string, string> } | undefined
}

/** the Vary of every answer to a request without an allowed Origin */
export const PLAIN_VARY = 'Origin'

export function createCors(allowed: OriginAllowlist): Cors {
  const vary = { vary: PLAIN_VARY }
  const answerHeaders = (origin: string | undefined, host: string | undefined) =>
    origin !== undefined && allowed(origin, host)
      ? { ...vary, 'access-control-allow-origin': origin, 'access-control-expose-headers': EXPOSED.join(', ') }
      : vary
  return {
    answerHeaders,
    preflight({ origin, host, requestMethod }, methods) {
      if (origin === undefined || requestMethod === undefined) return undefined
      if (!allowed(origin, host) || !methods.includes(requestMethod.toUpperCase())) return { status: 403, headers: vary }
      return {
        status: 204,
        headers: {
          ...vary,
          'access-control-allow-origin': origin,
          'access-control-allow-methods': methods.join(', '),
          'access-control-allow-headers': ALLOWED_REQUEST_HEADERS.join(', '),
          'access-control-max-age': String(PREFLIGHT_MAX_AGE_SECONDS),
        },
      }
    },
  }
}
