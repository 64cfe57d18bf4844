// The venue's public C# connector, StockSharp/Connectors folder Ostium/Native/ (commit 31d406ea), as far
// as a test needs it: its declared wire types mirrored as strict decoders, the pair names it builds and
// the requests it sends. It deserializes with Newtonsoft.Json and no converters
// (FloatParseHandling.Decimal), so a field declared `int` must hold a JSON integer in 32 bits, `long` a
// JSON integer, `decimal` a JSON number, `string` a JSON string, `string[]` an array of strings.
// Newtonsoft ignores members a type does not declare; the decoders are strict objects all the same, so a
// field the connector does not know is seen, and the few that are sent anyway are listed by name.
import { z } from 'zod'

const INT32_MAX = 2 ** 31 - 1
const DECIMAL_MAX = 79_228_162_514_264_337_593_543_950_335

const int = z
  .number()
  .int()
  .min(-(INT32_MAX + 1))
  .max(INT32_MAX)
const long = z.number().int().min(Number.MIN_SAFE_INTEGER).max(Number.MAX_SAFE_INTEGER)
const decimal = z.number().min(-DECIMAL_MAX).max(DECIMAL_MAX)
/** a member Newtonsoft skips because the type does not declare it */
const undeclared = z.unknown()

/** `OstiumDayTradingHours`, Model/Common.cs lines 118-125. */
const DayTradingHours = z.strictObject({ from: z.string(), to: z.string() })

/** `OstiumSchedule`, Model/Common.cs lines 100-116. */
const Schedule = z.strictObject({
  id: int,
  alwaysOpen: z.boolean(),
  timezone: z.string(),
  openingHours: z.array(z.string()),
  dayTradingHours: DayTradingHours,
})

/** `OstiumPrice`, Model/Common.cs lines 61-98. */
export const OstiumPrice = z.strictObject({
  feed_id: z.string(),
  pair: z.string(),
  from: z.string(),
  to: z.string(),
  bid: decimal,
  mid: decimal,
  ask: decimal,
  isMarketOpen: z.boolean(),
  isDayTradingClosed: z.boolean(),
  secondsToToggleIsDayTradingClosed: int,
  timestampSeconds: long,
  schedule: Schedule,
})

/** `OstiumPricesResponse`, Model/Api.cs lines 3-13. */
export const OstiumPricesResponse = z.strictObject({ prices: z.array(OstiumPrice), stale: z.boolean(), generatedAt: long })

/** `OstiumCandle`, Model/Api.cs lines 39-61. */
const OstiumCandle = z.strictObject({
  from: z.string(),
  to: z.string(),
  time: long,
  open: decimal,
  high: decimal,
  low: decimal,
  close: decimal,
})

/** `OstiumOhlcResponse`, Model/Api.cs lines 30-37. */
export const OstiumOhlcResponse = z.strictObject({ data: z.array(OstiumCandle), lastRequestTimestamp: long.nullable() })

/** `OstiumErrorResponse`, Model/Api.cs lines 63-67: what OstiumApiClient.SendAsync reads from a failed call. */
export const OstiumErrorResponse = z.object({ error: z.string() })

/** `OstiumPriceSocketHeader`, Model/Api.cs lines 78-82: read first from every frame to pick its type. */
export const OstiumPriceSocketHeader = z.object({ type: z.string() })

/** `OstiumPriceSnapshot`, Model/Api.cs lines 84-91; `seq` is not declared. */
export const OstiumPriceSnapshot = z.strictObject({ type: z.literal('snapshot'), seq: undeclared, data: z.array(OstiumPrice) })

/** `OstiumPriceTick`, Model/Api.cs lines 93-100; `seq` is not declared. */
export const OstiumPriceTick = z.strictObject({ type: z.literal('tick'), seq: undeclared, data: OstiumPrice })

/** `OstiumPriceSocketError`, Model/Api.cs lines 102-112; `code` is not declared. */
export const OstiumPriceSocketError = z.strictObject({
  type: z.literal('error'),
  code: undeclared,
  message: z.string().optional(),
  error: z.string().optional(),
})

/**
 * The text OstiumSocketClient.ProcessAsync (OstiumSocketClient.cs lines 304-311) puts in the exception an
 * error frame raises: `message`, else `error`, else "request rejected".
 */
export function connectorErrorText(frame: z.infer<typeof OstiumPriceSocketError>): string {
  return 'Ostium price stream: ' + (frame.message ? frame.message : (frame.error ?? 'request rejected'))
}

/** `NormalizePairName`, OstiumExtensions.cs lines 60-73: the connector's rename table. */
export function normalizePairName(value: string): string {
  const upper = value.trim().toUpperCase()
  const renamed: Record<string, string> = {
    CL: 'WTI',
    HG: 'XCU',
    SPX: 'US500',
    NDX: 'US100',
    DJI: 'US30',
    DAX: 'GER40',
    FTSE: 'UK100',
    HSI: 'HK50',
    NIK: 'JP225',
  }
  return renamed[upper] ?? upper
}

/**
 * A market as OstiumMessageAdapter_Connection.cs lines 131-150 builds it from a pair of the pairs list:
 * `ApiPair` (sent to OHLC and the stream) in the source's spelling, `PricePair` (how ticks are matched).
 */
export function connectorMarket(pair: { from: string; to: string }): { apiPair: string; pricePair: string } {
  const rawFrom = pair.from.trim().toUpperCase()
  const rawTo = pair.to.trim().toUpperCase()
  return { apiPair: `${rawFrom}-${rawTo}`, pricePair: `${normalizePairName(rawFrom)}-${normalizePairName(rawTo)}` }
}

/** The headers OstiumApiClient's HttpClient sends (OstiumApiClient.cs lines 100-104, 251-252). */
export const CONNECTOR_HTTP_HEADERS = {
  'user-agent': 'StockSharp-Ostium-Connector/1.0',
  accept: 'application/json',
  'accept-encoding': 'gzip, deflate',
}

/** `OstiumOhlcRequest` as JsonConvert writes it, members in declared order (Model/Api.cs lines 15-28). */
export function ohlcRequestBody(pair: string, fromSeconds: number, toSeconds: number, resolution: string): string {
  return JSON.stringify({ pair, fromTimestampSeconds: fromSeconds, toTimestampSeconds: toSeconds, resolution })
}

/** `OstiumPriceSubscriptionRequest` as OstiumSocketClient.SendAsync writes it (OstiumSocketClient.cs lines 215-223). */
export function subscriptionMessage(type: 'subscribe' | 'unsubscribe', pairs: string[]): string {
  return JSON.stringify({ type, pairs })
}

/**
 * `OstiumApiClient.GetCandlesAsync` (OstiumApiClient.cs, commit 8a9f0c3d): how the connector pages a long
 * range. Each call asks from a millisecond cursor (sent as whole seconds) to `to`; the candles of a page are
 * sorted and kept once per `time`; the next call starts at the last candle's time (which repeats it), and
 * paging stops on an empty page, a cursor that did not move, the end of the range, 20 pages or enough candles.
 */
export async function connectorCandles(
  post: (body: string) => Promise<unknown>,
  request: { pair: string; fromMs: number; toMs: number; resolution: string; maximumCandles: number },
): Promise<{ candles: Array<z.infer<typeof OstiumCandle>>; lastRequestTimestamp: number | null; pages: number }> {
  let cursor = request.fromMs
  const candles: Array<z.infer<typeof OstiumCandle>> = []
  const times = new Set<number>()
  let lastRequestTimestamp: number | null = null
  let pages = 0
  for (; pages < 20 && candles.length < request.maximumCandles;) {
    const body = ohlcRequestBody(request.pair, Math.trunc(cursor / 1000), Math.trunc(request.toMs / 1000), request.resolution)
    const response = OstiumOhlcResponse.parse(await post(body))
    pages++
    lastRequestTimestamp = response.lastRequestTimestamp
    const page = response.data.filter((candle) => candle.time > 0).sort((a, b) => a.time - b.time)
    for (const candle of page) {
      if (!times.has(candle.time)) {
        times.add(candle.time)
        candles.push(candle)
      }
    }
    if (page.length === 0) break
    const next = page[page.length - 1]!.time
    if (next <= cursor || next >= request.toMs) break
    cursor = next
  }
  return { candles: candles.sort((a, b) => a.time - b.time).slice(0, request.maximumCandles), lastRequestTimestamp, pages }
}
