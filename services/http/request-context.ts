import type { Logger } from '../../kit/logger.ts'

/** Everything a handler may read about a request; copied out of uWS's request object up front. */
export interface RequestContext {
  method: string
  path: string
  /** route parameters by name, e.g. { pair: 'BTC-USD' } for /v1/prices/:pair */
  params: Record<string, string>
  query: URLSearchParams
  /** lower-case header names */
  headers: Record<string, string>
  clientIp: string
  requestId: string
  /** the raw body of POST requests (already checked against the size limit) */
  body: Buffer
  log: Logger
}
