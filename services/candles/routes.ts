import { ServiceError } from '../../kit/errors.ts'
import { OhlcRequest } from '../../schemas/ohlc.ts'
import { pairByName } from '../../schemas/pairs.ts'
import type { Route } from '../http/http-server.ts'
import { jsonReply } from '../http/reply.ts'
import { DEFAULT_MAX_CANDLES_PER_RESPONSE } from './config.ts'
import { readOhlcPage, type CandleSource } from './ohlc-page.ts'

export interface OhlcRouteOptions {
  /** candles per response at most; longer ranges page (default 1000) */
  maxCandlesPerResponse?: number
}

/** POST /v1/ohlc (spec 4.6). Every failure, the kit's 405, 413 and 429 too, answers in the upstream-proxy shape `{ error }` (spec 7). */
export function ohlcRoutes(source: CandleSource, options: OhlcRouteOptions = {}): Route[] {
  const maxCandles = options.maxCandlesPerResponse ?? DEFAULT_MAX_CANDLES_PER_RESPONSE
  return [
    {
      method: 'POST',
      path: '/v1/ohlc',
      budget: 'ohlc',
      errorShape: 'upstream-proxy',
      async handle({ body }) {
        const request = parseRequest(body)
        const pair = pairByName(request.pair)
        if (!pair) throw new ServiceError('not_found', `unknown pair "${request.pair}"; symbols look like BTC-USD`)
        return jsonReply(200, await readOhlcPage(source, pair, request, maxCandles))
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
