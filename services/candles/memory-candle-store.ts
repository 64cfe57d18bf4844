import { OHLC_RESOLUTIONS, type OhlcResolution } from '../../schemas/ohlc.ts'
import { mergeCandles, periodStart, type Candle } from './candle.ts'
import type { CandleStore } from './candle-store.ts'
import { RESOLUTION_SECONDS } from './resolutions.ts'

/** One pair's candles of one resolution: period starts in ascending order, and the candle of each. */
interface Series {
  times: number[]
  candles: Map<number, Candle>
}

/** Candles in this process's memory: lost on restart, not shared between replicas. */
export function memoryCandleStore(options: { keepPerResolution: number }): CandleStore {
  const seriesByKey = new Map<string, Series>()

  const keyOf = (pair: string, resolution: OhlcResolution) => `${pair} ${resolution}`
  const seriesOf = (pair: string, resolution: OhlcResolution): Series => {
    let series = seriesByKey.get(keyOf(pair, resolution))
    if (!series) seriesByKey.set(keyOf(pair, resolution), (series = { times: [], candles: new Map() }))
    return series
  }

  const mergeInto = (series: Series, candle: Candle) => {
    const stored = series.candles.get(candle.time)
    if (stored) {
      series.candles.set(candle.time, mergeCandles(stored, candle))
      return
    }
    series.candles.set(candle.time, candle)
    const { times } = series
    // ticks mostly arrive in time order, so the new period is usually the last one
    if (times.length === 0 || candle.time > times[times.length - 1]!) times.push(candle.time)
    else times.splice(firstIndexAtOrAfter(times, candle.time), 0, candle.time)
  }

  const trim = (series: Series) => {
    const excess = series.times.length - options.keepPerResolution
    if (excess > 0) for (const time of series.times.splice(0, excess)) series.candles.delete(time)
  }

  const mergeMinutes = (pair: string, minuteCandles: readonly Candle[]) => {
    for (const resolution of OHLC_RESOLUTIONS) {
      const width = RESOLUTION_SECONDS[resolution]
      const series = seriesOf(pair, resolution)
      for (const candle of minuteCandles) mergeInto(series, { ...candle, time: periodStart(candle.time, width) })
      trim(series)
    }
  }

  return {
    kind: 'memory',
    async merge(pair, minuteCandles) {
      mergeMinutes(pair, minuteCandles)
    },
    async mergeAbsentMinutes(pair, minuteCandles) {
      const minutes = seriesByKey.get(keyOf(pair, '1'))?.candles
      mergeMinutes(
        pair,
        minuteCandles.filter((candle) => !minutes?.has(candle.time)),
      )
    },
    async insertAbsent(pair, resolution, candles) {
      const series = seriesOf(pair, resolution)
      for (const candle of candles) if (!series.candles.has(candle.time)) mergeInto(series, candle)
      trim(series)
    },
    async read(pair, resolution, fromSeconds, toSeconds, limit) {
      const series = seriesByKey.get(keyOf(pair, resolution))
      if (!series) return []
      const { times, candles } = series
      const found: Candle[] = []
      for (let index = firstIndexAtOrAfter(times, fromSeconds); index < times.length && found.length < limit; index++) {
        const time = times[index]!
        if (time >= toSeconds) break
        found.push(candles.get(time)!)
      }
      return found
    },
    async latestBefore(pair, resolution, beforeSeconds) {
      const series = seriesByKey.get(keyOf(pair, resolution))
      const index = series ? firstIndexAtOrAfter(series.times, beforeSeconds) - 1 : -1
      return index < 0 ? undefined : series!.candles.get(series!.times[index]!)
    },
  }
}

/** Binary search in ascending `times`: the index of the first value >= `time` (the length if none). */
function firstIndexAtOrAfter(times: readonly number[], time: number): number {
  let low = 0
  let high = times.length
  while (low < high) {
    const middle = (low + high) >>> 1
    if (times[middle]! < time) low = middle + 1
    else high = middle
  }
  return low
}
