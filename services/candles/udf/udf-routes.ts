// Our own TradingView datafeed (UDF) over the merged candles: GET /v1/udf/config, /symbols, /search,
// /history and /time. Failures answer in UDF's shape `{ s: "error", errmsg }`.

import { ServiceError } from '../../../kit/errors.ts'
import type { OhlcResolution } from '../../../schemas/ohlc.ts'
import { PAIRS, pairByName } from '../../../schemas/pairs.ts'
import { ohlcResolutionOf, UDF_RESOLUTIONS, UdfHistoryQuery, UdfSearchQuery, UdfSymbolQuery, type UdfConfig } from '../../../schemas/udf.ts'
import type { z } from 'zod'
import type { Route } from '../../http/http-server.ts'
import { jsonReply, type Reply } from '../../http/reply.ts'
import { DEFAULT_MAX_CANDLES_PER_RESPONSE } from '../config.ts'
import { readCandlePage, type CandleSource } from '../ohlc-page.ts'
import { RESOLUTION_SECONDS } from '../resolutions.ts'
import { searchItem, symbolInfo, UDF_EXCHANGE, UDF_TYPES } from './symbol-info.ts'

export interface UdfRouteOptions {
  /** bars per answer at most (the earliest of the range); default 1000 */
  maxCandlesPerResponse?: number
  /** ms since the epoch, for /time; default Date.now */
  now?: () => number
}

/** How many store pages one /history answer reads at most to gather its bars (a sparse range is read page by page). */
const MAX_PAGES_PER_ANSWER = 8

const CONFIG: UdfConfig = {
  supported_resolutions: [...UDF_RESOLUTIONS],
  supports_search: true,
  supports_group_request: false,
  supports_marks: false,
  supports_timescale_marks: false,
  supports_time: true,
  exchanges: [{ value: UDF_EXCHANGE, name: UDF_EXCHANGE, desc: 'The venue' }],
  symbols_types: [{ name: 'All types', value: '' }, ...[...new Set(Object.values(UDF_TYPES))].map((type) => ({ name: type, value: type }))],
}

export function udfRoutes(source: CandleSource, options: UdfRouteOptions = {}): Route[] {
  const maxCandles = options.maxCandlesPerResponse ?? DEFAULT_MAX_CANDLES_PER_RESPONSE
  const now = options.now ?? Date.now
  const get = (path: string, handle: Route['handle']): Route => ({ method: 'GET', path, budget: 'udf', errorShape: 'udf', handle })
  return [
    get('/v1/udf/config', () => jsonReply(200, CONFIG)),
    get('/v1/udf/time', (): Reply => ({ status: 200, body: String(Math.floor(now() / 1000)), contentType: 'text/plain' })),
    get('/v1/udf/symbols', ({ query }) => {
      const { symbol } = parsed(UdfSymbolQuery, query)
      return jsonReply(200, symbolInfo(pairNamed(symbol)))
    }),
    get('/v1/udf/search', ({ query }) => {
      const { query: text, type, exchange, limit } = parsed(UdfSearchQuery, query)
      const wanted = text.toUpperCase()
      const found = PAIRS.filter(
        (pair) =>
          (pair.symbol.includes(wanted) || `${pair.base} / ${pair.quote}`.includes(wanted)) &&
          (type === '' || UDF_TYPES[pair.assetClass] === type) &&
          (exchange === '' || exchange === UDF_EXCHANGE),
      )
      return jsonReply(200, found.slice(0, limit).map(searchItem))
    }),
    get('/v1/udf/history', async ({ query }) => {
      const request = parsed(UdfHistoryQuery, query)
      if (request.to <= request.from) throw new ServiceError('validation_failed', 'invalid request: to must be after from')
      const pair = pairNamed(request.symbol)
      const resolution: OhlcResolution = ohlcResolutionOf(request.resolution)
      // one deadline for the whole answer, however many reads it takes, as a POST /v1/ohlc answer has
      const deadline = source.history && AbortSignal.timeout(source.history.timeoutMs)
      const candles = []
      let from = request.from
      for (let page = 0; page < MAX_PAGES_PER_ANSWER && from < request.to && candles.length < maxCandles; page++) {
        const read = await readCandlePage(source, pair, resolution, { from, to: request.to }, maxCandles - candles.length, deadline)
        candles.push(...read.candles)
        from = read.next
      }
      if (candles.length === 0) {
        // the bars just before the range are fetched first, so that nextTime does not skip history not yet stored
        const width = RESOLUTION_SECONDS[resolution]
        await readCandlePage(source, pair, resolution, { from: request.from - maxCandles * width, to: request.from }, maxCandles, deadline)
        const before = await source.store.latestBefore(pair.symbol, resolution, request.from)
        return jsonReply(200, before ? { s: 'no_data', nextTime: before.time } : { s: 'no_data' })
      }
      return jsonReply(200, {
        s: 'ok',
        t: candles.map((candle) => candle.time),
        o: candles.map((candle) => candle.open),
        h: candles.map((candle) => candle.high),
        l: candles.map((candle) => candle.low),
        c: candles.map((candle) => candle.close),
      })
    }),
  ]
}

function pairNamed(name: string) {
  const pair = pairByName(name)
  if (!pair) throw new ServiceError('not_found', `unknown symbol "${name}"; symbols look like BTC-USD`)
  return pair
}

function parsed<Schema extends z.ZodType>(schema: Schema, query: URLSearchParams): z.infer<Schema> {
  const result = schema.safeParse(Object.fromEntries(query))
  if (result.success) return result.data
  const problems = result.error.issues.map((issue) => `${issue.path.join('.') || 'query'}: ${issue.message}`)
  throw new ServiceError('validation_failed', `invalid request: ${problems.join('; ')}`)
}
