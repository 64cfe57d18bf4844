import { z } from 'zod'
import { documentedAs } from './common.ts'

// The TradingView UDF datafeed over our candles (`/v1/udf/*`). Shapes from TradingView's UDF
// specification (the Charting Library's "UDF" page: /config, /symbols, /search, /history, /time) and the
// fields of its LibrarySymbolInfo and SearchSymbolResultItem that its UDF adapter reads.

/** The resolutions the datafeed serves: our candles' widths in UDF's spelling (`1D` is one UTC day). */
export const UDF_RESOLUTIONS = ['1', '5', '15', '60', '240', '1D'] as const
export type UdfResolution = (typeof UDF_RESOLUTIONS)[number]

export const UdfConfig = z
  .strictObject({
    supported_resolutions: z.array(z.enum(UDF_RESOLUTIONS)),
    supports_search: z.literal(true),
    supports_group_request: z.literal(false),
    supports_marks: z.literal(false),
    supports_timescale_marks: z.literal(false),
    supports_time: z.literal(true),
    exchanges: z.array(z.strictObject({ value: z.string(), name: z.string(), desc: z.string() })),
    symbols_types: z.array(z.strictObject({ name: z.string(), value: z.string() })),
  })
  .meta({ id: 'UdfConfig', description: 'What the datafeed supports (UDF `/config`)' })
export type UdfConfig = z.infer<typeof UdfConfig>

export const UdfSymbolInfo = z
  .strictObject({
    name: z.string().meta({ description: 'The pair symbol, e.g. BTC-USD (a legacy spelling resolves to it)' }),
    ticker: z.string().meta({ description: 'What to send as `symbol` to /history: the pair symbol' }),
    full_name: z.string(),
    description: z.string(),
    type: z.enum(['crypto', 'forex', 'commodity', 'index', 'stock']),
    exchange: z.string(),
    listed_exchange: z.string(),
    session: z.string().meta({
      description:
        "Trading hours in TradingView's session syntax, in `timezone`: `24x7`, or `HHMM-HHMM[,…]:days|…` (days 1 = Sunday … 7 = Saturday; `F` starts the previous day)",
      example: '0930-1600:23456',
    }),
    session_holidays: z.string().meta({ description: 'Whole days without trading in the calendar, `YYYYMMDD,…`' }),
    corrections: z.string().meta({ description: 'Days with other hours (early closes), `SESSION:YYYYMMDD;…`' }),
    timezone: z.string().meta({ description: 'The exchange time zone (IANA name) the session is written in', example: 'America/New_York' }),
    minmov: z.literal(1),
    pricescale: z.number().int().positive().meta({ description: "10 to the power of the pair's price decimals", example: 100 }),
    format: z.literal('price'),
    has_intraday: z.literal(true),
    has_daily: z.literal(true),
    has_weekly_and_monthly: z.literal(false),
    intraday_multipliers: z.array(z.string()),
    daily_multipliers: z.array(z.string()),
    supported_resolutions: z.array(z.enum(UDF_RESOLUTIONS)),
    visible_plots_set: z.literal('ohlc').meta({ description: 'Candles carry no volume' }),
    data_status: z.literal('streaming'),
    currency_code: z.string(),
  })
  .meta({ id: 'UdfSymbolInfo', description: "A pair as TradingView's LibrarySymbolInfo (UDF `/symbols`)" })
export type UdfSymbolInfo = z.infer<typeof UdfSymbolInfo>

export const UdfSearchItem = z
  .strictObject({
    symbol: z.string(),
    full_name: z.string(),
    description: z.string(),
    exchange: z.string(),
    ticker: z.string(),
    type: UdfSymbolInfo.shape.type,
  })
  .meta({ id: 'UdfSearchItem' })
export type UdfSearchItem = z.infer<typeof UdfSearchItem>
export const UdfSearchResult = z.array(UdfSearchItem).meta({ id: 'UdfSearchResult' })
export type UdfSearchResult = z.infer<typeof UdfSearchResult>

const times = z.array(z.number().int()).meta({ description: 'Bar times: the start of each period, Unix seconds' })
const prices = z.array(z.number())
export const UdfHistory = z
  .discriminatedUnion('s', [
    z.strictObject({ s: z.literal('ok'), t: times, o: prices, h: prices, l: prices, c: prices }),
    z.strictObject({
      s: z.literal('no_data'),
      nextTime: z.number().int().optional().meta({ description: 'The start of the latest bar before `from`, when there is one' }),
    }),
  ])
  .meta({ id: 'UdfHistory', description: 'Bars of mid prices, columns aligned by index (UDF `/history`); no volume' })
export type UdfHistory = z.infer<typeof UdfHistory>

export const UdfError = z.strictObject({ s: z.literal('error'), errmsg: z.string() }).meta({
  id: 'UdfError',
  description: "Every failure of a UDF route, as UDF clients read it (TradingView's adapter reads `s` and `errmsg`)",
})
export type UdfError = z.infer<typeof UdfError>

/** A bar width as UDF clients spell it: `D` is read as `1D` (`ohlcResolutionOf`). */
export const UdfResolutionParam = z.enum([...UDF_RESOLUTIONS, 'D']).meta({ description: 'A bar width; `D` is read as `1D`' })

/** The candle resolution a UDF spelling names. */
export const ohlcResolutionOf = (resolution: z.infer<typeof UdfResolutionParam>): UdfResolution => (resolution === 'D' ? '1D' : resolution)

/** A whole number in a query string, documented as the integer it is parsed into. */
const integerParam = (range: { min: number; max: number }, description: string, example?: number) =>
  z
    .string()
    .regex(/^\d{1,16}$/, 'must be a whole number')
    .transform(Number)
    .pipe(z.number().min(range.min).max(range.max))
    .meta(documentedAs({ type: 'integer', minimum: range.min, maximum: range.max, description, ...(example !== undefined && { example }) }))

const UnixSeconds = (description: string, example: number) => integerParam({ min: 0, max: 253_402_300_799 }, description, example)

/** Query of GET /v1/udf/history; other parameters UDF clients add are accepted and not read. */
export const UdfHistoryQuery = z.looseObject({
  symbol: z.string().min(1).meta({ description: 'A pair symbol (BTC-USD) or its legacy spelling (SPX-USD)', example: 'BTC-USD' }),
  resolution: UdfResolutionParam,
  from: UnixSeconds('Unix seconds: the first bar starts at or after it (widened to the start of its period)', 1_767_225_600),
  to: UnixSeconds('Unix seconds, exclusive', 1_767_312_000),
  countback: integerParam({ min: 1, max: 100_000 }, 'Accepted and not read: bars come from `from` to `to`').optional(),
})
export type UdfHistoryQuery = z.infer<typeof UdfHistoryQuery>

/** Query of GET /v1/udf/symbols. */
export const UdfSymbolQuery = z.looseObject({
  symbol: z.string().min(1).meta({ description: 'A pair symbol or its legacy spelling', example: 'BTC-USD' }),
})

/** Query of GET /v1/udf/search. */
export const UdfSearchQuery = z.looseObject({
  query: z.string().default('').meta({ description: 'Text in the symbol or description, any case' }),
  type: z.string().default('').meta({ description: "One of the config's symbol types; empty: all" }),
  exchange: z.string().default('').meta({ description: 'Empty or the venue (VENUE)' }),
  limit: integerParam({ min: 1, max: 100 }, 'Results at most (TradingView asks for 30)', 30).default(30),
})
