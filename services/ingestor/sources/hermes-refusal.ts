// What a non-2xx answer from Hermes means for the client: a key problem (wait long, say so loudly), the
// rate limit (wait it out), feed ids Hermes does not know (its 404 names them), or a plain failure.

const RETRY_AFTER_SECONDS = /^\d+$/
/** Hermes's 404 for unknown ids: "Price ids not found: 0xab…, 0xcd…" */
const MISSING_IDS = /^Price ids not found: (.*)$/s
const PRICE_ID = /0x[0-9a-fA-F]{64}/g

export type RefusalKind = 'auth' | 'rate_limited' | 'unknown_feed_ids' | 'http_error'

export class HermesRefusal extends Error {
  override readonly name = 'HermesRefusal'

  constructor(
    readonly endpoint: 'stream' | 'price_feeds',
    readonly status: number,
    readonly kind: RefusalKind,
    /** the body, already fit for a log line */
    readonly body: string,
    /** from Retry-After, when the answer had one */
    readonly retryAfterMs: number | undefined,
    /** for `unknown_feed_ids`: the ids as Hermes names them (0x, lowercase) */
    readonly feedIds: readonly string[],
  ) {
    super(`Hermes answered HTTP ${status} (${kind}) to the ${endpoint} request`)
  }
}

export function hermesRefusal(
  endpoint: HermesRefusal['endpoint'],
  status: number,
  headers: Headers,
  body: string,
  nowMs = Date.now(),
): HermesRefusal {
  const retryAfterMs = retryAfter(headers.get('retry-after'), nowMs)
  if (status === 401 || status === 403) return new HermesRefusal(endpoint, status, 'auth', body, retryAfterMs, [])
  if (status === 429) return new HermesRefusal(endpoint, status, 'rate_limited', body, retryAfterMs, [])
  const missing = status === 404 ? MISSING_IDS.exec(body.trim()) : null
  if (missing) {
    const ids = (missing[1]!.match(PRICE_ID) ?? []).map((id) => id.toLowerCase())
    return new HermesRefusal(endpoint, status, 'unknown_feed_ids', body, retryAfterMs, ids)
  }
  return new HermesRefusal(endpoint, status, 'http_error', body, retryAfterMs, [])
}

/** Retry-After as delay-seconds or an HTTP date (RFC 9110 10.2.3), in ms from now; undefined if absent or unreadable. */
function retryAfter(value: string | null, nowMs: number): number | undefined {
  if (value === null) return undefined
  const text = value.trim()
  if (RETRY_AFTER_SECONDS.test(text)) return Number(text) * 1000
  const at = Date.parse(text)
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs)
}
