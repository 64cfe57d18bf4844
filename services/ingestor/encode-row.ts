import type { PriceRow } from '../../schemas/price.ts'

/** The bytes before and after a row's changing fields, for one pair's feed id and schedule object. */
interface RowTemplate {
  feedId: string
  schedule: object
  head: Buffer
  tail: Buffer
}

const templates = new Map<string, RowTemplate>()

/**
 * The JSON bytes of a price row, exactly as JSON.stringify would write them (a test holds it to that),
 * built without walking an object graph: this runs once per tick. What stays the same for a pair (feed
 * id, symbols, the shared schedule object) is encoded once into bytes; per tick only the prices, flags
 * and timestamp are written. Those are finite numbers (normalisation refused the rest) and booleans, so
 * template interpolation writes them as JSON does, in ASCII; pair, from and to come from our pair list.
 */
export function encodeRow(row: PriceRow): Buffer {
  let template = templates.get(row.pair)
  if (template?.feedId !== row.feed_id || template.schedule !== row.schedule) {
    template = {
      feedId: row.feed_id,
      schedule: row.schedule,
      head: Buffer.from(`{"feed_id":${JSON.stringify(row.feed_id)},"pair":"${row.pair}","from":"${row.from}","to":"${row.to}","bid":`),
      tail: Buffer.from(`,"schedule":${JSON.stringify(row.schedule)}}`),
    }
    templates.set(row.pair, template)
  }
  const fields =
    `${row.bid},"mid":${row.mid},"ask":${row.ask},"isMarketOpen":${row.isMarketOpen},` +
    `"isDayTradingClosed":${row.isDayTradingClosed},` +
    `"secondsToToggleIsDayTradingClosed":${row.secondsToToggleIsDayTradingClosed},` +
    `"timestampSeconds":${row.timestampSeconds}`
  const { head, tail } = template
  const bytes = Buffer.allocUnsafe(head.length + fields.length + tail.length)
  head.copy(bytes, 0)
  bytes.write(fields, head.length, 'latin1')
  tail.copy(bytes, head.length + fields.length)
  return bytes
}
