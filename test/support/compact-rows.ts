import type { PriceRow } from '../../schemas/price.ts'
import type { RawFrame } from './resume-clients.ts'

/** The rows a compact connection's frames stand for, rebuilt as the spec's row (its key order included). */
export function rebuiltRows(frames: readonly RawFrame[]): Array<{ seq: number; cursor: string | undefined; row: string }> {
  const statics = new Map<number, Record<string, unknown>>()
  const rows: Array<{ seq: number; cursor: string | undefined; row: string }> = []
  for (const { json } of frames) {
    if (json.type === 'snapshot') json.data.forEach((row: PriceRow, index: number) => statics.set(json.ids[index], row))
    if (json.type === 'static') statics.set(json.p, json.data)
    if (json.type !== 't') continue
    const { feed_id, pair, from, to, schedule } = statics.get(json.p) as PriceRow
    const [bid, mid, ask, flags, secondsToToggleIsDayTradingClosed, timestampSeconds] = json.d as number[]
    const row = {
      ...{ feed_id, pair, from, to, bid, mid, ask },
      ...{ isMarketOpen: (flags! & 1) === 1, isDayTradingClosed: (flags! & 2) === 2, secondsToToggleIsDayTradingClosed, timestampSeconds },
      schedule,
    }
    rows.push({ seq: json.seq, cursor: json.cursor, row: JSON.stringify(row) })
  }
  return rows
}

/** The same, from a full connection's tick frames: the row's text as sent. */
export const fullRows = (frames: readonly RawFrame[]) =>
  frames
    .filter((frame) => frame.json.type === 'tick')
    .map(({ json }) => ({ seq: json.seq, cursor: json.cursor, row: JSON.stringify(json.data) }))
