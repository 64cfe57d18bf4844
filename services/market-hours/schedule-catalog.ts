// The schedules as the rest of the gateway sees them, checked when the module loads: every schedule
// parses, ids are unique, every pair has exactly one schedule.

import { DateTime } from 'luxon'
import { PAIRS } from '../../schemas/pairs.ts'
import { parseSchedule, type ParsedSchedule } from './schedule-format.ts'
import { SCHEDULE_BY_ASSET_CLASS, SCHEDULE_BY_SYMBOL, SCHEDULE_DEFINITIONS, type ScheduleDefinition } from './schedule-data.ts'

export interface MarketHoursSchedule {
  readonly id: number
  readonly name: string
  readonly alwaysOpen: boolean
  readonly timezone: string
  /** the schedule text: `Timezone;WeeklySchedule;Holidays` */
  readonly openingHours: string
  /** first and last local dates the holiday data covers; null when the market never closes */
  readonly validFrom: string | null
  readonly validThrough: string | null
}

/** each schedule's text parsed once, when the module loads: the time lines and the UDF sessions read it */
const PARSED_BY_ID = new Map<number, ParsedSchedule>()

function describeSchedule(definition: ScheduleDefinition): MarketHoursSchedule {
  const { id, name, openingHours, validFrom, validThrough } = definition
  const parsed = parseSchedule(openingHours)
  PARSED_BY_ID.set(id, parsed)
  const { alwaysOpen, timezone } = parsed
  if (!alwaysOpen && !(isIsoDate(validFrom) && isIsoDate(validThrough) && validFrom <= validThrough)) {
    throw new Error(`schedule ${id} (${name}) closes at times, so it needs validFrom <= validThrough as YYYY-MM-DD`)
  }
  return Object.freeze({ id, name, alwaysOpen, timezone, openingHours, validFrom, validThrough })
}

function isIsoDate(text: string | null): text is string {
  return text !== null && /^\d{4}-\d\d-\d\d$/.test(text) && DateTime.fromISO(text).isValid
}

/** Every schedule, by ascending id. */
export const MARKET_HOURS_SCHEDULES: readonly MarketHoursSchedule[] = Object.values(SCHEDULE_DEFINITIONS)
  .map(describeSchedule)
  .sort((a, b) => a.id - b.id)

const SCHEDULE_BY_ID = new Map(MARKET_HOURS_SCHEDULES.map((schedule) => [schedule.id, schedule]))
if (SCHEDULE_BY_ID.size !== MARKET_HOURS_SCHEDULES.length) throw new Error('two market-hours schedules share an id')

for (const symbol of Object.keys(SCHEDULE_BY_SYMBOL)) {
  if (!PAIRS.some((pair) => pair.symbol === symbol)) throw new Error(`market-hours schedule given for unknown pair ${symbol}`)
}

/** Pair id → schedule id, for all pairs. */
export const PAIR_SCHEDULE_IDS: ReadonlyMap<number, number> = new Map(
  PAIRS.map((pair) => {
    const key = SCHEDULE_BY_SYMBOL[pair.symbol] ?? SCHEDULE_BY_ASSET_CLASS[pair.assetClass]
    if (key === undefined) throw new Error(`pair ${pair.id} ${pair.symbol} has no market-hours schedule`)
    return [pair.id, SCHEDULE_DEFINITIONS[key].id]
  }),
)

/** Indexed by pair id, for the hot path. */
const SCHEDULE_OF_PAIR: (MarketHoursSchedule | undefined)[] = []
for (const [pairId, scheduleId] of PAIR_SCHEDULE_IDS) SCHEDULE_OF_PAIR[pairId] = SCHEDULE_BY_ID.get(scheduleId)

/** A schedule's text, parsed. */
export function parsedSchedule(schedule: MarketHoursSchedule): ParsedSchedule {
  return PARSED_BY_ID.get(schedule.id)!
}

export function scheduleForPair(pairId: number): MarketHoursSchedule | undefined {
  return SCHEDULE_OF_PAIR[pairId]
}
