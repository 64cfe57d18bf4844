import { PAIRS } from '../../schemas/pairs.ts'
import type { PairFilter } from './pair-filter.ts'

/**
 * What the fan-out has published, per asset: the `seq` of the last tick frame and its row. New
 * connections take their snapshot from here, and a lagging connection's missed ticks are computed
 * from it (seq is per asset and deployment-wide, so the difference of two sums counts the ticks between).
 */
export class PublishedTicks {
  readonly seq = new Float64Array(PAIRS.length)
  readonly rows = new Array<Buffer | undefined>(PAIRS.length)
  /** records per asset: a frame built from some assets is current while their count is unchanged */
  readonly changes = new Float64Array(PAIRS.length)
  /** records over every asset */
  version = 0
  /** the deployment position of the latest record (its cursor's) */
  position = 0
  /** the sum of `seq` over every asset */
  private total = 0

  record(pairId: number, seq: number, row: Buffer, position = this.position): void {
    this.position = position
    this.total += seq - this.seq[pairId]!
    this.seq[pairId] = seq
    this.rows[pairId] = row
    this.changes[pairId]!++
    this.version++
  }

  /** The records of the assets of a filter: it grows whenever one of them changes. */
  changesOver(filter: PairFilter): number {
    if (filter === null) return this.version
    let sum = 0
    for (const pairId of filter) sum += this.changes[pairId]!
    return sum
  }

  /** The sum of `seq` over the assets of a filter. */
  sumOver(filter: PairFilter): number {
    if (filter === null) return this.total
    let sum = 0
    for (const pairId of filter) sum += this.seq[pairId]!
    return sum
  }
}
