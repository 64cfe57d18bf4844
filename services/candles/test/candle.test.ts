// Folding one tick into a candle: `withTick` gives what merging the tick's own candle gives, field for field, and
// the very same candle when the tick changes nothing (live candles publish a candle again only when it changed).
import t from 'tap'
import { mergeCandles, tickCandle, withTick, type Candle } from '../candle.ts'

const candle: Candle = { time: 600, open: 10, openAt: 610, high: 12, low: 9, close: 11, closeAt: 640 }

t.test('the same fields as merging the tick as a candle of the same period', async (t) => {
  const ticks: Array<[mid: number, at: number, what: string]> = [
    [10.5, 605, 'before the open: it opens'],
    [10.5, 640, 'at the close second: it closes'],
    [10.5, 650, 'after the close: it closes'],
    [13, 650, 'a new high'],
    [8, 630, 'a new low, not closing'],
    [14, 600, 'a new high, opening'],
  ]
  for (const [mid, at, what] of ticks) {
    const expected = mergeCandles(candle, tickCandle(mid, at, candle.time))
    const folded = withTick(candle, mid, at)
    t.same(folded, expected, what)
    t.not(folded, candle, `${what}: a new candle`)
  }
  t.same(candle, { time: 600, open: 10, openAt: 610, high: 12, low: 9, close: 11, closeAt: 640 }, 'the candle itself is left as it was')
})

t.test('the same candle when the tick changes none of its fields', async (t) => {
  t.equal(withTick(candle, 10.5, 610), candle, 'inside the range, at the open second: the open stays, and it does not close')
  t.equal(withTick(candle, 11, 640), candle, 'the close again, at its second')
  t.equal(withTick(candle, 10.5, 620), candle, 'a price inside the range, between open and close')
  t.equal(withTick(candle, 12, 610), candle, 'the high, at the open second')
})

t.test("a tick's candle of a chosen period", async (t) => {
  t.same(tickCandle(5, 3_725, 3_600), { time: 3_600, open: 5, openAt: 3_725, high: 5, low: 5, close: 5, closeAt: 3_725 })
  t.equal(tickCandle(5, 3_725).time, 3_720, 'its minute by default')
})
