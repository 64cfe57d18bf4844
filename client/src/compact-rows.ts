// Rows from compact frames (`?format=compact`): the static part of each pair, kept from the snapshot and the
// `static` frames, joined with a tick's changing fields into the row a connection of full rows gets.
import type { CompactSnapshotFrame, CompactTickFrame, PriceRow, RowStaticPart, StaticFrame } from './stream-frames.ts'

/** The fields a compact tick carries, in the order of its `d` (the two flags share one number). */
const CHANGING_FIELDS = [
  'bid',
  'mid',
  'ask',
  'isMarketOpen',
  'isDayTradingClosed',
  'secondsToToggleIsDayTradingClosed',
  'timestampSeconds',
] as const

export class CompactRows {
  /** per pair id, its static part */
  private readonly statics = new Map<number, RowStaticPart>()

  /** Takes the static part of every row of a compact snapshot. */
  fromSnapshot(frame: CompactSnapshotFrame): void {
    frame.data.forEach((row, index) => {
      const statics: Partial<PriceRow> = { ...row }
      for (const field of CHANGING_FIELDS) delete statics[field]
      this.statics.set(frame.ids[index]!, statics as RowStaticPart)
    })
  }

  fromStatic(frame: StaticFrame): void {
    this.statics.set(frame.p, frame.data)
  }

  /** The row of a compact tick, its fields in a full row's order; undefined when its pair's static part never came. */
  row(frame: CompactTickFrame): PriceRow | undefined {
    const statics = this.statics.get(frame.p)
    if (!statics) return undefined
    const { feed_id, pair, from, to, schedule } = statics
    const [bid, mid, ask, flags, secondsToToggleIsDayTradingClosed, timestampSeconds] = frame.d
    const isMarketOpen = (flags & 1) === 1
    const isDayTradingClosed = (flags & 2) === 2
    return {
      feed_id,
      pair,
      from,
      to,
      bid,
      mid,
      ask,
      isMarketOpen,
      isDayTradingClosed,
      secondsToToggleIsDayTradingClosed,
      timestampSeconds,
      schedule,
    }
  }
}
