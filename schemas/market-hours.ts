import { z } from 'zod'
import { documentedAs } from './common.ts'
import { PAIR_NAMES, pairByName } from './pairs.ts'

// GET /v1/market-hours (spec 4.6, "not shown"): the trading calendars, which pair follows which, and
// optionally every pair's market state at a chosen instant.

/** The latest instant `at` accepts: 9999-12-31T23:59:59Z, so every answer can name its time. */
export const MAX_AT_SECONDS = 253_402_300_799

/** One trading calendar. `openingHours` is the whole schedule text, `Timezone;WeeklySchedule;Holidays`. */
export const MarketHoursSchedule = z.strictObject({
  id: z.number().int(),
  name: z.string(),
  alwaysOpen: z.boolean(),
  /** IANA time zone of the reference market */
  timezone: z.string(),
  openingHours: z.string(),
  /** first and last local dates (YYYY-MM-DD) the holiday data covers; null for a market that never closes */
  validFrom: z.string().nullable(),
  validThrough: z.string().nullable(),
})
export type MarketHoursSchedule = z.infer<typeof MarketHoursSchedule>

/** A pair's market at the requested instant; the same flags as on a price row, plus the next open and close. */
export const PairMarketState = z.strictObject({
  isMarketOpen: z.boolean(),
  isDayTradingClosed: z.boolean(),
  /** seconds until isDayTradingClosed flips, rounded up; -1 when it never flips */
  secondsToToggleIsDayTradingClosed: z.number().int(),
  /** Unix seconds of the next session opening after the instant; null when the market never closes */
  nextOpen: z.number().int().nullable(),
  /** Unix seconds of the next session closing after the instant; null when the market never closes */
  nextClose: z.number().int().nullable(),
})
export type PairMarketState = z.infer<typeof PairMarketState>

export const MarketHoursPair = z.strictObject({
  pair: z.string(),
  /** the on-chain pair index (spec 2.6) */
  pairIndex: z.number().int(),
  scheduleId: z.number().int(),
  /** only when the request names an instant (`at`) */
  state: PairMarketState.optional(),
})
export type MarketHoursPair = z.infer<typeof MarketHoursPair>

export const MarketHoursResponse = z.strictObject({
  /** the instant the states are for (Unix seconds); only when the request names one */
  at: z.number().int().optional(),
  /** the schedules of the listed pairs, by ascending id */
  schedules: z.array(MarketHoursSchedule),
  /** in pair-index order */
  pairs: z.array(MarketHoursPair),
})
export type MarketHoursResponse = z.infer<typeof MarketHoursResponse>

/** Query of GET /v1/market-hours: `pair` narrows to one pair, `at` (Unix seconds) adds each pair's state. */
export const MarketHoursQuery = z.strictObject({
  pair: z
    .string()
    .refine((name) => pairByName(name) !== undefined, 'must be a listed pair symbol such as BTC-USD')
    // a legacy spelling names the same pair: the answer (and the cache key) use its current symbol
    .transform((name) => pairByName(name)!.symbol)
    .meta(
      documentedAs({
        type: 'string',
        enum: PAIR_NAMES,
        description:
          'Only this pair: its symbol, or a legacy spelling from the pairs list (`SPX-USD` for `US500-USD`; CL, HG, SPX, NDX, DJI, DAX, FTSE, HSI, NIK); the answer names the pair by its symbol',
      }),
    )
    .optional(),
  at: z
    .string()
    .regex(/^\d+$/, 'must be Unix seconds as a whole number')
    .transform(Number)
    .pipe(z.number().max(MAX_AT_SECONDS, 'must be no later than 9999-12-31T23:59:59Z'))
    .meta(
      documentedAs({
        type: 'integer',
        minimum: 0,
        maximum: MAX_AT_SECONDS,
        description: "Unix seconds: adds every pair's state at that instant",
      }),
    )
    .optional(),
})
export type MarketHoursQuery = z.infer<typeof MarketHoursQuery>
