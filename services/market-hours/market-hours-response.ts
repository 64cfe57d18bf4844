// The body of GET /v1/market-hours: the schedules of the requested pairs, which pair follows which, and
// with an instant, each pair's market state then. Past the calendar's data the request is refused.

import { DateTime } from 'luxon'
import { ServiceError } from '../../kit/errors.ts'
import type {
  MarketHoursPair,
  MarketHoursQuery,
  MarketHoursResponse,
  MarketHoursSchedule,
  PairMarketState,
} from '../../schemas/market-hours.ts'
import { PAIRS, pairBySymbol, type Pair } from '../../schemas/pairs.ts'
import { evaluateAt, MARKET_HOURS_SCHEDULES, MarketHoursHorizonError, PAIR_SCHEDULE_IDS } from './market-hours.ts'

export function describeMarketHours(query: MarketHoursQuery): MarketHoursResponse {
  const requested = query.pair === undefined ? PAIRS : [pairBySymbol(query.pair)!]
  const pairs = requested.flatMap((pair): MarketHoursPair[] => {
    const scheduleId = PAIR_SCHEDULE_IDS.get(pair.id)
    if (scheduleId === undefined) return []
    const entry: MarketHoursPair = { pair: pair.symbol, pairIndex: pair.id, scheduleId }
    if (query.at !== undefined) entry.state = stateAt(pair, query.at)
    return [entry]
  })
  const usedScheduleIds = new Set(pairs.map((entry) => entry.scheduleId))
  const schedules = MARKET_HOURS_SCHEDULES.filter((schedule) => usedScheduleIds.has(schedule.id)).map(
    ({ id, name, alwaysOpen, timezone, openingHours, validFrom, validThrough }): MarketHoursSchedule => ({
      id,
      name,
      alwaysOpen,
      timezone,
      openingHours,
      validFrom,
      validThrough,
    }),
  )
  return { ...(query.at !== undefined && { at: query.at }), schedules, pairs }
}

function stateAt(pair: Pair, atSeconds: number): PairMarketState {
  try {
    return evaluateAt(pair.id, atSeconds * 1000)
  } catch (error) {
    if (!(error instanceof MarketHoursHorizonError)) throw error
    const scheduleId = PAIR_SCHEDULE_IDS.get(pair.id)
    throw new ServiceError(
      'validation_failed',
      `at ${isoTime(atSeconds * 1000)} is outside the market-hours data of ${pair.symbol} ` +
        `(schedule ${scheduleId}, ${error.scheduleName}), which answers from ${isoTime(error.answersFromMs)} ` +
        `until ${isoTime(error.answersUntilMs)}`,
      {
        cause: error,
        details: {
          at: atSeconds,
          pair: pair.symbol,
          scheduleId,
          answersFrom: error.answersFromMs / 1000,
          answersUntil: error.answersUntilMs / 1000,
        },
      },
    )
  }
}

function isoTime(instantMs: number): string {
  return DateTime.fromMillis(instantMs, { zone: 'utc' }).toISO({ suppressMilliseconds: true }) ?? String(instantMs)
}
