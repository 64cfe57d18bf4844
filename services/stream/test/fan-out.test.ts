import t from 'tap'
import { PAIRS, pairBySymbol } from '../../../schemas/pairs.ts'
import { priceRow, rowBytes } from '../../../test/support/price-rows.ts'
import { createFanOut } from '../fan-out.ts'
import { PublishedTicks } from '../published-ticks.ts'

interface Sent {
  pair: string
  seq: number
  droppedBefore: number
}

/**
 * A fan-out whose every delivery holds the thread for `deliverMs`, as writing to many sockets does; uWS's writes
 * hold `framesPerWrite` frames.
 */
function fanOutWith(sliceMs: number, deliverMs: number, framesPerWrite = 1) {
  const sent: Sent[] = []
  const announced: number[] = []
  /** how many ticks had been delivered each time the ticks sent together had gone out */
  const together: number[] = []
  /** the positions of the ticks handed to `sent` (delivered or superseded), for the resume window */
  const left: number[] = []
  const fanOut = createFanOut({
    published: new PublishedTicks(),
    sliceMs,
    framesPerWrite,
    deliver({ pairId, seq }, droppedBefore) {
      const until = performance.now() + deliverMs
      while (performance.now() < until);
      sent.push({ pair: PAIRS[pairId]!.symbol, seq, droppedBefore })
    },
    sent: ({ position }) => left.push(position),
    announceConflation: (dropped) => announced.push(dropped),
    sentTogether: () => together.push(sent.length),
  })
  // the bus's numbering: seq per pair, position over every pair; `missed` ticks of the pair never reach this edge
  const seqs = new Map<string, number>()
  let position = 0
  const onRow = (pair: string, missed = 0) => {
    const seq = (seqs.get(pair) ?? 0) + 1 + missed
    seqs.set(pair, seq)
    position += 1 + missed
    fanOut.onTick({ pairId: pairBySymbol(pair)!.id, seq, position, row: rowBytes(priceRow(pair)) })
  }
  return { fanOut: { onRow }, sent, announced, left, together }
}

const endOfTurn = () => new Promise((resolve) => setImmediate(resolve))
const read = (fanOut: { onRow(pair: string): void }, ...pairs: string[]) => {
  for (const pair of pairs) fanOut.onRow(pair)
  return Promise.resolve()
}

t.test('the ticks of one read go out together, in order, before the turn ends, while the slice lasts', async (t) => {
  const { fanOut, sent, announced } = fanOutWith(60_000, 1)
  const pairs = PAIRS.slice(0, 10).map((pair) => pair.symbol)
  let sentAtEndOfTurn = -1
  setImmediate(() => (sentAtEndOfTurn = sent.length))
  for (const pair of pairs) fanOut.onRow(pair)
  t.equal(sent.length, 0, 'nothing is sent while the read is being parsed')
  await endOfTurn()
  t.equal(sentAtEndOfTurn, 10, 'all ten went out before the end of the turn')
  t.same(
    sent,
    pairs.map((pair) => ({ pair, seq: 1, droppedBefore: 0 })),
  )
  t.same(announced, [], 'one tick per pair: nothing to conflate')
})

t.test('past the slice, a turn sends on in order until its last write is full; the rest waits for the next turn, conflated', async (t) => {
  const { fanOut, sent, announced, left } = fanOutWith(0, 0, 4)
  await read(fanOut, 'BTC-USD', 'ETH-USD', 'BTC-USD', 'BTC-USD', 'ETH-USD', 'ETH-USD', 'SOL-USD', 'BTC-USD', 'BTC-USD')
  t.same(
    sent,
    [
      { pair: 'BTC-USD', seq: 1, droppedBefore: 0 },
      { pair: 'ETH-USD', seq: 1, droppedBefore: 0 },
      { pair: 'BTC-USD', seq: 2, droppedBefore: 0 },
      { pair: 'BTC-USD', seq: 3, droppedBefore: 0 },
    ],
    'the slice is spent at once; four frames fill a write',
  )
  await endOfTurn()
  t.equal(sent.length, 4, "the rest does not go out from the turn's end, where uWS would write it alone")

  await read(fanOut, 'SOL-USD')
  t.same(
    sent.slice(4),
    [
      { pair: 'ETH-USD', seq: 3, droppedBefore: 1 },
      { pair: 'SOL-USD', seq: 1, droppedBefore: 0 },
      { pair: 'BTC-USD', seq: 5, droppedBefore: 1 },
      { pair: 'SOL-USD', seq: 2, droppedBefore: 0 },
    ],
    "the next turn's first read sends the latest row per pair first, in position order, then its own tick",
  )
  t.same(announced, [2], 'one gap for every pair superseded, before the conflated frames')
  t.same(left, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 'every tick, superseded ones too, left for the resume window in position order')
})

t.test("past the slice, a turn's later reads send on until the last write is full, a gap before a missed tick counted", async (t) => {
  const { fanOut, sent } = fanOutWith(0, 0, 4)
  await read(fanOut, 'BTC-USD')
  fanOut.onRow('ETH-USD', 1)
  await read(fanOut, 'SOL-USD', 'XRP-USD')
  t.same(
    sent,
    [
      { pair: 'BTC-USD', seq: 1, droppedBefore: 0 },
      { pair: 'ETH-USD', seq: 2, droppedBefore: 1 },
      { pair: 'SOL-USD', seq: 1, droppedBefore: 0 },
    ],
    "BTC's frame, ETH's gap and frame, SOL's frame: a whole write",
  )
  await read(fanOut, 'BTC-USD')
  t.equal(sent.length, 3, 'a later read of a spent turn whose write is full costs nothing')
  await endOfTurn()
  await read(fanOut, 'ETH-USD')
  t.same(
    sent.slice(3).map(({ pair, seq }) => [pair, seq]),
    [
      ['XRP-USD', 1],
      ['BTC-USD', 2],
      ['ETH-USD', 3],
    ],
    'the next turn opens a new slice',
  )
})

t.test('waiting ticks no read takes along go out at the end of the next turn', async (t) => {
  const { fanOut, sent, announced, left } = fanOutWith(0, 0)
  await read(fanOut, 'BTC-USD')
  await read(fanOut, 'ETH-USD', 'ETH-USD')
  await endOfTurn()
  t.equal(sent.length, 1)
  await endOfTurn()
  t.same(sent.slice(1), [{ pair: 'ETH-USD', seq: 2, droppedBefore: 1 }])
  t.same(announced, [1])
  t.same(left, [1, 2, 3], 'the superseded tick left for the resume window too')
  await endOfTurn()
  t.equal(sent.length, 2, 'and once only')
})

t.test('the end of the ticks sent together is told after each read, the waiting ones it took along included', async (t) => {
  const { fanOut, sent, together } = fanOutWith(0, 0)
  await read(fanOut, 'BTC-USD')
  t.same(together, [1], "told once the read's tick was delivered, within the turn")
  await read(fanOut, 'ETH-USD', 'ETH-USD')
  t.same(together, [1], 'a read that waits has sent nothing yet')
  await endOfTurn()
  t.same(together, [1], 'nor at the end of its turn')
  await read(fanOut, 'BTC-USD')
  t.same(together, [1, 3], "told once after the waiting ETH tick and the next read's BTC tick went out")
  t.same(
    sent.map(({ pair, seq }) => [pair, seq]),
    [
      ['BTC-USD', 1],
      ['ETH-USD', 2],
      ['BTC-USD', 2],
    ],
  )
  await endOfTurn()
  await endOfTurn()
  t.same(together, [1, 3], 'a turn with nothing waiting tells it once, after its read')
  await read(fanOut, 'SOL-USD')
  await read(fanOut, 'SOL-USD', 'SOL-USD')
  await endOfTurn()
  await endOfTurn()
  t.same(together, [1, 3, 4, 5], 'with no read in the next turn, told after the waiting tick goes out at its end')
})
