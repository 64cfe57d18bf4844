import t from 'tap'
import fc from 'fast-check'
import { encodeRow } from '../../ingestor/encode-row.ts'
import { ingestorRows } from '../../../test/support/ingestor-rows.ts'
import { tickPriceOf } from '../tick-price.ts'

const bytes = (value: unknown) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value))

t.test("the ingestor's rows: the mid and timestamp JSON.parse reads, for any price and pair", async (t) => {
  fc.assert(
    fc.property(ingestorRows(), (priceRow) => {
      const row = encodeRow(priceRow)
      const parsed = JSON.parse(row.toString()) as { mid: number; timestampSeconds: number }
      t.strictSame(tickPriceOf(row), { mid: parsed.mid, timestampSeconds: parsed.timestampSeconds })
    }),
    { numRuns: 300 },
  )
})

t.test('other layouts are parsed whole: the row’s own fields, never a nested object’s or a string’s', async (t) => {
  t.strictSame(tickPriceOf(bytes({ mid: 5, timestampSeconds: 7 })), { mid: 5, timestampSeconds: 7 }, 'mid first')
  t.strictSame(
    tickPriceOf(bytes({ inner: { mid: 1, timestampSeconds: 1 }, mid: 5, timestampSeconds: 7 })),
    { mid: 5, timestampSeconds: 7 },
    'a nested object before the fields',
  )
  t.strictSame(
    tickPriceOf(bytes({ feed_id: ',"mid":1,', mid: 5, timestampSeconds: 7 })),
    { mid: 5, timestampSeconds: 7 },
    'the key spelled inside a string',
  )
  t.strictSame(tickPriceOf(bytes('{"a":1,"mid":2.5e3,"timestampSeconds":9}')), { mid: 2500, timestampSeconds: 9 }, 'an exponent')
})

t.test('what is not a usable price is undefined', async (t) => {
  for (const row of [
    '{"a":1,"mid":-5,"timestampSeconds":7}',
    '{"a":1,"mid":0,"timestampSeconds":7}',
    '{"a":1,"mid":"5","timestampSeconds":7}',
    '{"a":1,"mid":5,"timestampSeconds":7.5}',
    '{"a":1,"mid":5,"timestampSeconds":-1}',
    '{"a":1,"mid":5}',
    '{"a":1,"mid":5,"timestampSeconds":7',
    '{"a":1,"mid":05,"timestampSeconds":7}',
    '{"a":1,"mid":1e999,"timestampSeconds":7}',
    'not json',
    '',
  ]) {
    t.equal(tickPriceOf(bytes(row)), undefined, row)
  }
})

t.test('a row handed on twice in a row is read once; the next row is read anew', async (t) => {
  const row = bytes('{"a":1,"mid":5,"timestampSeconds":7}')
  const first = tickPriceOf(row)
  t.equal(tickPriceOf(row), first, 'the same answer, not a second reading')
  t.strictSame(tickPriceOf(bytes('{"a":1,"mid":6,"timestampSeconds":8}')), { mid: 6, timestampSeconds: 8 })
  t.equal(tickPriceOf(bytes('not json')), undefined, 'an unusable row after a usable one')
})
