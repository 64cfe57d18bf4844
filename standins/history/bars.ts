// TradingView resolutions as the History API reads them, and the bars of any resolution built from the
// stand-in's minute bars: a bar covers the minutes of its period when the market was open.

import { createMarketHours, MarketHoursHorizonError } from '../../services/market-hours/market-hours.ts'
import type { HistoryFeed } from './catalog.ts'
import type { MinuteBar, PricePath } from './price-path.ts'

/** The resolutions of Pyth's History API page (minutes, D, W, M) and the `1D`/`1W`/`1M` spellings UDF clients also send. */
export const RESOLUTIONS = ['1', '2', '5', '15', '30', '60', '120', '240', '360', '720', 'D', '1D', 'W', '1W', 'M', '1M'] as const
export type Resolution = (typeof RESOLUTIONS)[number]

/** Pyth's history starts on 2025-04-01 (apps/mcp/src/utils/timestamp.ts, `DATA_AVAILABLE_FROM_UNIX`). */
export const DATA_STARTS_AT = 1_743_465_600

const DAY = 86_400
/** 1970-01-05, the first Monday after the epoch: weeks start on Mondays at 00:00 UTC. */
const FIRST_MONDAY = 4 * DAY

export function isResolution(text: string): text is Resolution {
  return (RESOLUTIONS as readonly string[]).includes(text)
}

/** The start of the period holding `seconds`, and of the next one, in UTC. */
export function periodOf(resolution: Resolution, seconds: number): { start: number; end: number } {
  const unit = resolution.replace(/^1(?=[DWM])/, '')
  if (unit === 'D') {
    const start = Math.floor(seconds / DAY) * DAY
    return { start, end: start + DAY }
  }
  if (unit === 'W') {
    const start = Math.floor((seconds - FIRST_MONDAY) / (7 * DAY)) * 7 * DAY + FIRST_MONDAY
    return { start, end: start + 7 * DAY }
  }
  if (unit === 'M') {
    const date = new Date(seconds * 1000)
    return {
      start: Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1) / 1000,
      end: Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1) / 1000,
    }
  }
  const width = Number(unit) * 60
  const start = Math.floor(seconds / width) * width
  return { start, end: start + width }
}

/** Whether a feed's market is open at an instant, and until when that holds (Unix seconds; Infinity: for good). */
export type MarketState = (feed: HistoryFeed, seconds: number) => { open: boolean; until: number }

/**
 * A feed's market state from its pair's calendar (the simulator's too). Outside the calendar's data it is
 * shut (crypto never is): before the data, until the data begins; after it, for good.
 */
export function marketStates(): MarketState {
  const hours = createMarketHours()
  return (feed, seconds) => {
    try {
      const open = hours.flagsAt(feed.pair.id, seconds * 1000).isMarketOpen
      return { open, until: hours.nextChangeAt(feed.pair.id, seconds * 1000) / 1000 }
    } catch (error) {
      if (!(error instanceof MarketHoursHorizonError)) throw error
      return { open: false, until: seconds * 1000 < error.answersFromMs ? error.answersFromMs / 1000 : Number.POSITIVE_INFINITY }
    }
  }
}

/**
 * The bars whose period starts in [from, to] (both inclusive), oldest first: each from the open minutes of
 * its period before `now` (the period in progress is served as it stands), none for a period with no open
 * minute, none before DATA_STARTS_AT. Shut spans are skipped whole.
 */
export function barsBetween(
  path: PricePath,
  feed: HistoryFeed,
  market: MarketState,
  resolution: Resolution,
  range: { from: number; to: number; now: number },
): MinuteBar[] {
  const bars: MinuteBar[] = []
  let period = periodOf(resolution, Math.max(range.from, DATA_STARTS_AT))
  if (period.start < range.from) period = periodOf(resolution, period.end)
  const lastMinute = Math.floor(range.now / 60) * 60
  while (period.start <= range.to && period.start <= lastMinute) {
    let bar: MinuteBar | undefined
    const end = Math.min(period.end, lastMinute + 60)
    for (let minute = period.start; minute < end;) {
      const state = market(feed, minute)
      const until = Math.min(end, Math.ceil(state.until / 60) * 60)
      if (!state.open) {
        minute = until
        continue
      }
      for (; minute < until; minute += 60) {
        const next = path.rawBar(minute / 60)
        if (!bar) bar = { ...next, time: period.start }
        else {
          if (next.high > bar.high) bar.high = next.high
          if (next.low < bar.low) bar.low = next.low
          bar.close = next.close
        }
      }
    }
    if (bar) bars.push(path.rounded(bar))
    // a shut span that outlasts the period skips the periods inside it
    const state = market(feed, period.end)
    period = periodOf(
      resolution,
      state.open || !Number.isFinite(state.until) ? period.end : Math.max(period.end, Math.floor(state.until / 60) * 60),
    )
    if (!Number.isFinite(state.until) && !state.open) break
  }
  return bars
}
