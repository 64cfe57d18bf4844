import { rowBytes, syntheticPriceRow as priceRow } from '../../schemas/synthetic-price-row.ts'

export { priceRow, rowBytes }

/** The bytes of a row of about `extraBytes` more than usual (padded at its end, in the schedule), to fill buffers in few ticks. */
export const bulkyRowBytes = (pair: string, mid: number, extraBytes = 2000) => {
  const { schedule } = priceRow(pair)
  return rowBytes(priceRow(pair, { mid, schedule: { ...schedule, timezone: schedule.timezone + ' '.repeat(extraBytes) } }))
}
