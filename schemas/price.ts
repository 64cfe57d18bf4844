import { z } from 'zod'

/**
 * One weekday of a schedule's weekly hours, in its time zone: `O` open all day, `C` closed, or sessions
 * `HHMM-HHMM` joined by `&`, each half-open, `2400` only as an end (the day-entry grammar of the schedule
 * text in GET /v1/market-hours).
 */
const DAY_ENTRY_PATTERN =
  '^(O|C|([01]\\d|2[0-3])[0-5]\\d-(([01]\\d|2[0-3])[0-5]\\d|2400)(&([01]\\d|2[0-3])[0-5]\\d-(([01]\\d|2[0-3])[0-5]\\d|2400))*)$'

/** When day trading is allowed, relative to each session of `openingHours`. */
export const DayTradingHours = z.strictObject({
  from: z
    .string()
    .regex(/^open\+\d\d:[0-5]\d$/)
    .meta({
      description: 'When day trading opens: `open+HH:MM`, that long after each session opens',
      example: 'open+00:01',
    }),
  to: z
    .string()
    .regex(/^close-\d\d:[0-5]\d$/)
    .meta({
      description: 'When day trading ends: `close-HH:MM`, that long before each session closes',
      example: 'close-00:15',
    }),
})
export type DayTradingHours = z.infer<typeof DayTradingHours>

/** The venue's rule: day trading opens this long after each session opens and ends this long before it closes. */
export const DAY_TRADING_MINUTES = Object.freeze({ afterOpen: 1, beforeClose: 15 })

/** The rule as every row's `schedule.dayTradingHours` spells it. */
export const DAY_TRADING_HOURS: DayTradingHours = Object.freeze({
  from: `open+${hoursAndMinutes(DAY_TRADING_MINUTES.afterOpen)}`,
  to: `close-${hoursAndMinutes(DAY_TRADING_MINUTES.beforeClose)}`,
})

function hoursAndMinutes(minutes: number): string {
  const pad = (value: number) => String(value).padStart(2, '0')
  return `${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`
}

/**
 * Spec 2.1's `{ id, alwaysOpen }`, plus the fields the venue's builder-API docs and its C# connector type:
 * `timezone`, `openingHours` (an array of strings) and `dayTradingHours { from, to }`.
 */
export const ScheduleRef = z.strictObject({
  id: z.number().int().min(0).max(2147483647).meta({ description: 'Schedule id, as in GET /v1/market-hours' }),
  alwaysOpen: z.boolean().meta({ description: 'true for a market that never closes' }),
  timezone: z.string().meta({ description: 'IANA time zone of the reference market', example: 'America/New_York' }),
  openingHours: z
    .array(z.string().regex(new RegExp(DAY_ENTRY_PATTERN)))
    .length(7)
    .meta({
      description:
        'The weekly hours in `timezone`, seven entries, Monday first; each `O` (open all day), `C` (closed) or `HHMM-HHMM` sessions joined by `&`, half-open, `2400` only as an end. Holidays are in GET /v1/market-hours.',
      example: ['0930-1600', '0930-1600', '0930-1600', '0930-1600', '0930-1600', 'C', 'C'],
    }),
  dayTradingHours: DayTradingHours,
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
  secondsToToggleIsDayTradingClosed: z
    .number()
    .int()
    .min(-1)
    .max(2147483647)
    .meta({ description: 'Whole seconds until `isDayTradingClosed` flips, rounded up; -1 when it never flips' }),
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
