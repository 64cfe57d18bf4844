import type { Logger } from '../../kit/logger.ts'
import type { HttpResponse } from 'uWebSockets.js'

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

/** The context handed to handlers; the client's address is worked out only when read. */
export class UwsRequestContext implements RequestContext {
  body = EMPTY_BODY
  private ip: string | undefined

  constructor(
    private readonly res: HttpResponse,
    private readonly resolveClientIp: (peer: string, forwardedFor: string | undefined) => string,
    readonly method: string,
    readonly path: string,
    readonly params: Record<string, string>,
    readonly query: URLSearchParams,
    readonly headers: Record<string, string>,
    readonly requestId: string,
    readonly log: Logger,
  ) {}

  /** the peer address stays readable until the response ends */
  get clientIp(): string {
    return (this.ip ??= this.resolveClientIp(peerAddress(this.res), this.headers['x-forwarded-for']))
  }
}

/** The socket's peer address as uWS gives it (IPv4 over an IPv6 socket in its long mapped form). */
export function peerAddress(res: HttpResponse): string {
  return Buffer.from(res.getRemoteAddressAsText()).toString()
}

const EMPTY_BODY = Buffer.alloc(0)
