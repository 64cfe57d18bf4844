import { ServiceError } from '../../kit/errors.ts'
import type { Logger } from '../../kit/logger.ts'
import type { UpstreamProxyError } from '../../schemas/errors.ts'
import { OhlcRequest } from '../../schemas/ohlc.ts'
import { pairBySymbol } from '../../schemas/pairs.ts'
import { errorResponse } from '../http/error-response.ts'
import type { Route } from '../http/http-server.ts'
import { jsonReply, type Reply } from '../http/reply.ts'
import type { CandleStore } from './candle-store.ts'
import { DEFAULT_MAX_CANDLES_PER_RESPONSE } from './config.ts'
import { readOhlcPage } from './ohlc-page.ts'

export interface OhlcRouteOptions {
  /** candles per response at most; longer ranges page (default 1000) */
  maxCandlesPerResponse?: number
}

/** POST /v1/ohlc (spec 4.6). Every failure answers in the upstream-proxy shape `{ error }` (spec 7). */
export function ohlcRoutes(store: CandleStore, options: OhlcRouteOptions = {}): Route[] {
  const maxCandles = options.maxCandlesPerResponse ?? DEFAULT_MAX_CANDLES_PER_RESPONSE
  return [
    {
      method: 'POST',
      path: '/v1/ohlc',
      budget: 'ohlc',
      async handle({ body, log }) {
        try {
          const request = parseRequest(body)
          const pair = pairBySymbol(request.pair)
          if (!pair) throw new ServiceError('not_found', `unknown pair "${request.pair}"; symbols look like BTC-USD`)
          return jsonReply(200, await readOhlcPage(store, pair, request, maxCandles))
        } catch (error) {
          return upstreamProxyErrorReply(error, log)
        }
      },
    },
  ]
}

function parseRequest(body: Buffer): OhlcRequest {
  let json: unknown
  try {
    json = JSON.parse(body.toString())
  } catch {
    throw new ServiceError('validation_failed', 'invalid OHLC request: the body must be a JSON object')
  }
  const parsed = OhlcRequest.safeParse(json)
  if (parsed.success) return parsed.data
  const problems = parsed.error.issues.map((issue) => `${issue.path.join('.') || 'body'}: ${issue.message}`)
  throw new ServiceError('validation_failed', `invalid OHLC request: ${problems.join('; ')}`)
}

/** The status the framework would give, with its message as the upstream-proxy shape's `error`. */
function upstreamProxyErrorReply(error: unknown, log: Logger): Reply {
  const { status, body } = errorResponse(error)
  if (status >= 500) log.error({ err: error, route: '/v1/ohlc' }, 'OHLC request failed')
  const reply: UpstreamProxyError = { error: body.message }
  return jsonReply(status, reply)
}
