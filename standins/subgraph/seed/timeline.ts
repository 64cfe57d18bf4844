// One wallet's clock: every event it generates gets a strictly later timestamp, so rows of one trader
// never tie on initiatedAt or executedAt and paging by a `_gt` timestamp filter is exact.

import type { Random } from './random.ts'

/** No seed row is later than this (2026-01-01T00:00:00Z), whatever the seed; history starts 90 days before. */
export const SEED_HEAD_TIMESTAMP = 1767225600
export const HISTORY_SECONDS = 90 * 24 * 3600

const MAX_SETTLE_SECONDS = 4

export class Timeline {
  private now: number
  private readonly maxGap: number

  /** Up to `maxEvents` calls of next() (each maybe followed by settle()) all fall within [start, end]. */
  constructor(
    private readonly random: Random,
    start: number,
    end: number,
    maxEvents: number,
  ) {
    this.now = start
    this.maxGap = Math.max(1, Math.floor((end - start) / Math.max(1, maxEvents)) - MAX_SETTLE_SECONDS)
  }

  /** The next thing the trader does, some minutes or hours later. */
  next(): bigint {
    this.now += this.random.int(Math.ceil(this.maxGap / 10), this.maxGap)
    return BigInt(this.now)
  }

  /** The keeper settling what was just requested, a few seconds later. */
  settle(): bigint {
    this.now += this.random.int(1, MAX_SETTLE_SECONDS)
    return BigInt(this.now)
  }
}
