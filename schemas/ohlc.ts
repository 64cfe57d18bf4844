import { z } from 'zod'

// POST /v1/ohlc (spec 4.6, "not shown"; shaped like the venue's upstream candle service). Failures use
// the upstream-proxy error shape, UpstreamProxyError in errors.ts.

/** Candle widths: minutes, or `1D` (a UTC day, 00:00 to 24:00). */
export const OHLC_RESOLUTIONS = ['1', '5', '15', '60', '240', '1D'] as const
export type OhlcResolution = (typeof OHLC_RESOLUTIONS)[number]

/** The latest instant the request accepts: 9999-12-31T23:59:59Z. */
const MAX_UNIX_SECONDS = 253_402_300_799

const UnixSeconds = z.number().int('must be whole Unix seconds').min(0).max(MAX_UNIX_SECONDS)

/** A resolution as a string, or the minutes as a number (`60` means `"60"`). */
export const OhlcResolutionInput = z.union(
  [z.enum(OHLC_RESOLUTIONS), z.literal([1, 5, 15, 60, 240]).transform((minutes) => String(minutes) as OhlcResolution)],
  { error: `must be one of ${OHLC_RESOLUTIONS.join(', ')}` },
)

/**
 * The candles whose period starts in [fromTimestampSeconds, toTimestampSeconds), widened at the start
 * to the period holding fromTimestampSeconds.
 */
export const OhlcRequest = z
  .strictObject({
    pair: z.string().min(1).meta({
      description: 'Pair symbol, e.g. BTC-USD, or its legacy spelling from the pairs list (SPX-USD); candles name the pair by its symbol',
      example: 'BTC-USD',
    }),
    fromTimestampSeconds: UnixSeconds,
    toTimestampSeconds: UnixSeconds,
    resolution: OhlcResolutionInput,
  })
  .refine((request) => request.toTimestampSeconds > request.fromTimestampSeconds, {
    message: 'must be after fromTimestampSeconds',
    path: ['toTimestampSeconds'],
  })
export type OhlcRequest = z.infer<typeof OhlcRequest>

/** One candle of mid prices. No volume: the feed has none. */
export const OhlcCandle = z.strictObject({
  /** base asset, as on a price row */
  from: z.string(),
  /** quote asset, as on a price row */
  to: z.string(),
  /**
   * start of the candle's period, in milliseconds since the epoch: public clients of the venue's candle
   * service read it so (StockSharp/Connectors, Ostium/Native/OstiumApiClient.cs compares it with
   * millisecond cursors), while the request's bounds and `lastRequestTimestamp` are Unix seconds
   */
  time: z.number().int().meta({
    description: "Start of the candle's period, milliseconds since the epoch (the request's bounds are seconds)",
    example: 1767225600000,
  }),
  open: z.number(),
  high: z.number(),
  low: z.number(),
  close: z.number(),
})
export type OhlcCandle = z.infer<typeof OhlcCandle>

export const OhlcResponse = z.strictObject({
  /** oldest first; periods without ticks have no candle */
  data: z.array(OhlcCandle),
  /**
   * where this answer ends: toTimestampSeconds when it is complete, else the start of the first period
   * not returned. While it is below toTimestampSeconds, ask again with it as fromTimestampSeconds.
   */
  lastRequestTimestamp: z
    .number()
    .int()
    .meta({ description: 'Unix seconds where this answer ends; below toTimestampSeconds, ask again from it', example: 1767229200 }),
})
export type OhlcResponse = z.infer<typeof OhlcResponse>
