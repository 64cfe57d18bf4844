// Where candles live: one-minute candles are merged in, and every resolution is kept up to date from
// them, so a read of any resolution returns at most the candles it asks for.

import type { OhlcResolution } from '../../schemas/ohlc.ts'
import type { Candle } from './candle.ts'

export interface CandleStore {
  /** 'redis' when candles survive restarts and are shared by replicas */
  readonly kind: 'redis' | 'memory'
  /**
   * Merges one pair's one-minute candles into its candles of every resolution, all or nothing.
   * Rejects with ServiceError 'upstream_unavailable' when the store cannot be reached.
   */
  merge(pair: string, minuteCandles: readonly Candle[]): Promise<void>
  /**
   * Merges the history source's minute candles as `merge` does, but only minutes the store does not hold
   * at resolution 1 (our own candles win); each merged minute joins the candles of every resolution, so
   * a wider candle around a repaired hole becomes whole. Atomic like `merge`.
   */
  mergeAbsentMinutes(pair: string, minuteCandles: readonly Candle[]): Promise<void>
  /** Stores the history source's candles of one resolution into the periods that hold none, all or nothing. */
  insertAbsent(pair: string, resolution: OhlcResolution, candles: readonly Candle[]): Promise<void>
  /**
   * One pair's candles of one resolution whose period starts in [fromSeconds, toSeconds), oldest
   * first, at most `limit`. Rejects with ServiceError 'upstream_unavailable' when the store cannot be reached.
   */
  read(pair: string, resolution: OhlcResolution, fromSeconds: number, toSeconds: number, limit: number): Promise<Candle[]>
  /** The newest candle whose period starts before `beforeSeconds`, if any (a UDF `no_data` answer's `nextTime`). */
  latestBefore(pair: string, resolution: OhlcResolution, beforeSeconds: number): Promise<Candle | undefined>
}

/** Each resolution keeps this many of its newest candles per pair by default: 14 days of minutes. */
export const DEFAULT_KEEP_PER_RESOLUTION = 20_160
