// The candles of every pair and resolution as ticks arrive, for the candle stream: the forming candle of each,
// and each one that closes, made by the same folding as the candle writer's (tickCandle, mergeCandles), so a
// closed candle is what the store holds for its period.

import { OHLC_RESOLUTIONS, type OhlcResolution } from '../../schemas/ohlc.ts'
import { PAIRS, pairBySymbol } from '../../schemas/pairs.ts'
import { flagsOrUndefined, nextChangeOrNever, type MarketClock } from '../market-hours/market-clock.ts'
import { mergeCandles, periodStart, tickCandle, withTick, type Candle } from './candle.ts'
import type { CandleStore } from './candle-store.ts'
import { RESOLUTION_SECONDS } from './resolutions.ts'
import { tickPriceOf } from './tick-price.ts'

/** One candle to publish. */
export interface LiveCandle {
  pairId: number
  resolution: OhlcResolution
  candle: Candle
  closed: boolean
}

/** One pair's candles of one resolution. */
interface Series {
  readonly pairId: number
  readonly resolution: OhlcResolution
  forming: Candle | undefined
  /** the forming candle differs from the last one published */
  changed: boolean
  /** ended periods whose candles are still to be published, oldest first */
  ending: Candle[]
  lastClosed: Candle | undefined
  /** Unix seconds: periods that start before it are over, and a late tick for one is not folded */
  openFrom: number
}

export interface LiveCandlesOptions {
  store: CandleStore
  /** resolves once every tick the candle writer received is in the store */
  flushed(): Promise<void>
  /** which markets are open: no forming candle is published while a pair's is closed, nor the candle of a period it was closed throughout */
  marketClock: MarketClock
  /** ms since the epoch */
  now: () => number
  /** how long closing waits for the writer and the store before publishing its own folds */
  storeTimeoutMs?: number
  /** told when the store could not be read in time */
  onStoreFailure?(error: unknown): void
}

const STORE_TIMEOUT_MS = 400

export class LiveCandles {
  private readonly series: Series[] = []

  constructor(private readonly options: LiveCandlesOptions) {
    const nowSeconds = options.now() / 1000
    for (const pair of PAIRS)
      for (const resolution of OHLC_RESOLUTIONS) {
        const openFrom = periodStart(nowSeconds, RESOLUTION_SECONDS[resolution])
        this.series.push({ pairId: pair.id, resolution, forming: undefined, changed: false, ending: [], lastClosed: undefined, openFrom })
      }
  }

  /**
   * Reads what the store holds of every pair's forming and last closed candle; ticks folded meanwhile are
   * merged with it (merging is order-independent, and the store may hold some of the same ticks).
   */
  async seed(): Promise<void> {
    await Promise.all(
      this.series.map(async (series) => {
        const symbol = PAIRS[series.pairId]!.symbol
        const width = RESOLUTION_SECONDS[series.resolution]
        const [stored, before] = await Promise.all([
          this.options.store.read(symbol, series.resolution, series.openFrom, series.openFrom + width, 1),
          this.options.store.latestBefore(symbol, series.resolution, series.openFrom),
        ])
        const current = stored[0]
        if (current && (!series.forming || series.forming.time === current.time))
          series.forming = series.forming ? mergeCandles(current, series.forming) : current
        series.lastClosed ??= before
      }),
    )
  }

  /** Folds one tick (a price row's bytes) into every resolution of its pair. */
  fold(pair: string, row: Uint8Array): void {
    const pairId = pairBySymbol(pair)?.id
    const price = pairId === undefined ? undefined : tickPriceOf(row)
    if (pairId === undefined || !price) return
    const { mid, timestampSeconds } = price
    for (let index = 0; index < OHLC_RESOLUTIONS.length; index++) {
      const series = this.series[pairId * OHLC_RESOLUTIONS.length + index]!
      const time = periodStart(timestampSeconds, RESOLUTION_SECONDS[series.resolution])
      if (time < series.openFrom) continue
      // the source's clock has passed the forming period's end before ours did: that period is over
      if (series.forming && time > series.forming.time) this.end(series)
      const before = series.forming
      const after = before ? withTick(before, mid, timestampSeconds) : tickCandle(mid, timestampSeconds, time)
      series.forming = after
      if (!before || after.open !== before.open || after.high !== before.high || after.low !== before.low || after.close !== before.close)
        series.changed = true
    }
  }

  /**
   * What to publish now, in order: each candle whose period has ended (exactly once, merged with the store's
   * candle for the period, which may hold ticks this process did not fold), then each forming candle that
   * changed since it was last published, of pairs whose market is open.
   */
  async turn(): Promise<LiveCandle[]> {
    const nowMs = this.options.now()
    const ended: Series[] = []
    for (const series of this.series) {
      if (series.forming && nowMs >= (series.forming.time + RESOLUTION_SECONDS[series.resolution]) * 1000) this.end(series)
      if (series.ending.length > 0) ended.push(series)
    }
    // a candle of a period the market was closed throughout (a feed quoting a closed market) is not published
    const ending = ended.flatMap((series) =>
      series.ending.splice(0).flatMap((candle) => (this.wasOpenDuring(series, candle.time) ? [{ series, candle }] : [])),
    )
    const stored = ending.length === 0 ? [] : await this.storedCandles(ending)
    const closed = ending.map(({ series, candle }, index) => {
      const final = stored[index] ? mergeCandles(stored[index], candle) : candle
      if (!series.lastClosed || series.lastClosed.time <= final.time) series.lastClosed = final
      return { pairId: series.pairId, resolution: series.resolution, candle: final, closed: true }
    })
    const open = new Map<number, boolean>()
    const isOpen = (pairId: number) => {
      if (!open.has(pairId)) open.set(pairId, flagsOrUndefined(this.options.marketClock, pairId, nowMs)?.isMarketOpen === true)
      return open.get(pairId)!
    }
    const forming: LiveCandle[] = []
    for (const series of this.series) {
      if (!series.changed || !series.forming || !isOpen(series.pairId)) continue
      series.changed = false
      forming.push({ pairId: series.pairId, resolution: series.resolution, candle: series.forming, closed: false })
    }
    return [...closed, ...forming]
  }

  /** A pair's last closed candle and its forming one, where they exist. */
  latest(pairId: number, resolution: OhlcResolution): { lastClosed: Candle | undefined; forming: Candle | undefined } {
    const series = this.series[pairId * OHLC_RESOLUTIONS.length + OHLC_RESOLUTIONS.indexOf(resolution)]!
    return { lastClosed: series.lastClosed, forming: series.forming }
  }

  /** Whether the pair's market was open at some instant of the period starting at `time`: at its start, or after a change within it. */
  private wasOpenDuring(series: Series, time: number): boolean {
    const [start, end] = [time * 1000, (time + RESOLUTION_SECONDS[series.resolution]) * 1000]
    const { marketClock } = this.options
    return (
      flagsOrUndefined(marketClock, series.pairId, start)?.isMarketOpen === true ||
      nextChangeOrNever(marketClock, series.pairId, start) < end
    )
  }

  private end(series: Series): void {
    const candle = series.forming!
    series.ending.push(candle)
    series.forming = undefined
    series.changed = false
    series.openFrom = candle.time + RESOLUTION_SECONDS[series.resolution]
  }

  /**
   * The store's candles of the ended periods, once the candle writer has written what it folded (so POST
   * /v1/ohlc answers them as they go out); none when the store does not answer in time: the folds go out alone.
   */
  private async storedCandles(ending: readonly { series: Series; candle: Candle }[]): Promise<(Candle | undefined)[]> {
    const read = async () => {
      await this.options.flushed()
      return Promise.all(
        ending.map(async ({ series, candle }) => {
          const width = RESOLUTION_SECONDS[series.resolution]
          return (await this.options.store.read(PAIRS[series.pairId]!.symbol, series.resolution, candle.time, candle.time + width, 1))[0]
        }),
      )
    }
    let timer: NodeJS.Timeout | undefined
    const late = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), this.options.storeTimeoutMs ?? STORE_TIMEOUT_MS)
    })
    try {
      const stored = await Promise.race([read(), late])
      if (stored) return stored
      this.options.onStoreFailure?.(new Error(`no answer within ${this.options.storeTimeoutMs ?? STORE_TIMEOUT_MS} ms`))
    } catch (error) {
      this.options.onStoreFailure?.(error)
    } finally {
      clearTimeout(timer)
    }
    return []
  }
}
