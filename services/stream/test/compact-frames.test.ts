// Splitting a row for compact frames: a row in the ingestor's layout is cut by its text, any other parsed, and
// both give what the parsed row gives: its static part as JSON.stringify writes it, and the values of `d`.
import t from 'tap'
import fc from 'fast-check'
import type { PriceRow } from '../../../schemas/price.ts'
import { calendarMarketClock } from '../../market-hours/calendar-market-clock.ts'
import { encodeRow } from '../../ingestor/encode-row.ts'
import { ingestorRows } from '../../../test/support/ingestor-rows.ts'
import { normaliseQuote } from '../../ingestor/normalize.ts'
import { cutByText, splitRow } from '../compact-frames.ts'
import { RetainedRowParts } from '../replay-frames.ts'

/** The parts as the parsed row gives them. */
function partsOf(row: PriceRow) {
  const { bid, mid, ask, isMarketOpen, isDayTradingClosed, secondsToToggleIsDayTradingClosed, timestampSeconds, ...statics } = row
  const flags = (isMarketOpen ? 1 : 0) + (isDayTradingClosed ? 2 : 0)
  return {
    statics: JSON.stringify(statics),
    dynamic: `${bid},${mid},${ask},${flags},${secondsToToggleIsDayTradingClosed},${timestampSeconds}`,
  }
}

t.test("the ingestor's rows, any pair, price and instant: the parts of the parsed row", async (t) => {
  fc.assert(
    fc.property(ingestorRows(), (priceRow) => {
      const row = encodeRow(priceRow)
      t.strictSame(cutByText(row.toString()), partsOf(priceRow), 'cut by its text')
      t.strictSame(splitRow(row), partsOf(priceRow))
    }),
    { numRuns: 300 },
  )
})

t.test('other layouts are parsed: the same parts', async (t) => {
  const clock = calendarMarketClock()
  const normalised = normaliseQuote(
    { pair: 'BTC-USD', feedId: `0x${'ab'.repeat(32)}`, bid: 1, mid: 2, ask: 3, publishTimeSeconds: 1_800_000_000 },
    clock,
    1_800_000_000_000,
  )
  if (!normalised.ok) return t.fail(normalised.reason)
  const row = normalised.row
  const { mid, ...withoutMid } = row
  const reordered = { mid, ...withoutMid }
  const { feed_id, ...withoutFeedId } = row
  const nested = { feed_id, extra: { bid: 9 }, ...withoutFeedId }
  const nonAscii = { ...row, schedule: { ...row.schedule, timezone: 'Europe/Zürich' } }
  const spaced = JSON.stringify(row, null, 1)
  t.equal(cutByText(JSON.stringify(reordered)), undefined, 'not cut by its text')
  t.equal(cutByText(JSON.stringify(nested)), undefined, 'not cut by its text')
  for (const [name, value] of Object.entries({ reordered, nested, nonAscii })) {
    t.strictSame(splitRow(Buffer.from(JSON.stringify(value))), partsOf(value), name)
  }
  t.strictSame(splitRow(Buffer.from(spaced)), partsOf(row), 'with white space')
  t.throws(() => splitRow(Buffer.from('not a row')))
})

t.test('retained rows are split once for every replay, by position, pair and seq', async (t) => {
  let malformed = 0
  const parts = new RetainedRowParts(() => malformed++)
  const tick = { pairId: 0, seq: 7, position: 70, previousSeq: 6, row: Buffer.from('not a row') }
  const instead = { statics: '{"pair":"BTC-USD"}', dynamic: '1,2,3,1,-1,9' }
  t.strictSame(parts.of(tick, instead), instead, "a row that is not a price row: the pair's previous parts")
  t.strictSame(parts.of({ ...tick }, undefined), instead, 'the same tick again: split once')
  t.equal(malformed, 1)
  parts.of({ ...tick, seq: 8 }, instead)
  t.equal(malformed, 2, 'another tick at the position (another epoch): split again')
})
