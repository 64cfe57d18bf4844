import type { PriceRow } from '../../schemas/price.ts'

const scheduleJson = new WeakMap<object, string>()

/**
 * The JSON bytes of a price row, exactly as JSON.stringify would write them (a test holds it to that),
 * built without walking an object graph: this runs once per tick. The schedule object is shared by
 * every row of a pair, so its JSON is made once. Numbers are finite here (normalisation refused the
 * rest), so template interpolation writes them as JSON does; pair, from and to come from our pair list.
 */
export function encodeRow(row: PriceRow): Buffer {
  let schedule = scheduleJson.get(row.schedule)
  if (schedule === undefined) {
    schedule = JSON.stringify(row.schedule)
    scheduleJson.set(row.schedule, schedule)
  }
  return Buffer.from(
    `{"feed_id":${JSON.stringify(row.feed_id)},"pair":"${row.pair}","from":"${row.from}","to":"${row.to}",` +
      `"bid":${row.bid},"mid":${row.mid},"ask":${row.ask},"isMarketOpen":${row.isMarketOpen},` +
      `"isDayTradingClosed":${row.isDayTradingClosed},` +
      `"secondsToToggleIsDayTradingClosed":${row.secondsToToggleIsDayTradingClosed},` +
      `"timestampSeconds":${row.timestampSeconds},"schedule":${schedule}}`,
  )
}
