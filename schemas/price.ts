import { z } from 'zod'

/** Spec 2.1's `{ id, alwaysOpen }`, plus the fields the spec leaves open: the time zone and the weekly hours. */
export const ScheduleRef = z.strictObject({
  id: z.number().int().meta({ description: 'Schedule id, as in GET /v1/market-hours' }),
  alwaysOpen: z.boolean().meta({ description: 'true for a market that never closes' }),
  timezone: z.string().meta({ description: 'IANA time zone of the reference market', example: 'America/New_York' }),
  openingHours: z.string().meta({
    description:
      'The weekly part of the schedule text, `Timezone;Mon,Tue,Wed,Thu,Fri,Sat,Sun` with `HHMM-HHMM` sessions, `O` open all day, `C` closed; holidays are in GET /v1/market-hours',
    example: 'America/New_York;0930-1600,0930-1600,0930-1600,0930-1600,0930-1600,C,C',
  }),
})
export type ScheduleRef = z.infer<typeof ScheduleRef>

/** Spec 2.1: one row of the snapshot, and the `data` of a stream tick. */
export const PriceRow = z.strictObject({
  feed_id: z.string(),
  pair: z.string(),
  from: z.string(),
  to: z.string(),
  bid: z.number(),
  mid: z.number(),
  ask: z.number(),
  isMarketOpen: z.boolean(),
  isDayTradingClosed: z.boolean(),
  secondsToToggleIsDayTradingClosed: z.number(),
  timestampSeconds: z.number().int(),
  schedule: ScheduleRef,
})
export type PriceRow = z.infer<typeof PriceRow>

/** Spec 2.2. */
export const PriceSnapshot = z.strictObject({
  prices: z.array(PriceRow),
  stale: z.boolean(),
  generatedAt: z.number().int(),
})
export type PriceSnapshot = z.infer<typeof PriceSnapshot>

/** Spec 2.3. `lastTickAt` is 0 until the first tick has been seen. */
export const StatusRecord = z.strictObject({
  status: z.enum(['ok', 'degraded']),
  prices: z.strictObject({
    pairs: z.number().int().nonnegative(),
    stale: z.boolean(),
    lastTickAt: z.number().int().nonnegative(),
  }),
  time: z.number().int(),
})
export type StatusRecord = z.infer<typeof StatusRecord>

/** `GET /v1/prices` takes no parameters: anything in the query string is refused with 400. */
export const NoQuery = z.strictObject({})
