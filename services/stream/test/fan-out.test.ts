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

/** A fan-out whose every delivery holds the thread for `deliverMs`, as writing to many sockets does. */
function fanOutWith(sliceMs: number, deliverMs: number) {
  const sent: Sent[] = []
  const announced: number[] = []
  /** how many ticks had been delivered each time the ticks sent together had gone out */
  const together: number[] = []
  /** the positions of the ticks handed to `sent` (delivered or superseded), for the resume window */
  const left: number[] = []
  const fanOut = createFanOut({
    published: new PublishedTicks(),
    sliceMs,
    deliver({ pairId, seq }, droppedBefore) {
      const until = performance.now() + deliverMs
      while (performance.now() < until);
      sent.push({ pair: PAIRS[pairId]!.symbol, seq, droppedBefore })
    },
    sent: ({ position }) => left.push(position),
    announceConflation: (dropped) => announced.push(dropped),
    sentTogether: () => together.push(sent.length),
  })
  // the bus's numbering: seq per pair, position over every pair
  const seqs = new Map<string, number>()
  let position = 0
  const onRow = (pair: string, row: Buffer) => {
    const seq = (seqs.get(pair) ?? 0) + 1
    seqs.set(pair, seq)
    fanOut.onTick({ pairId: pairBySymbol(pair)!.id, seq, position: ++position, row })
  }
  return { fanOut: { onRow }, sent, announced, left, together }
}

const endOfTurn = () => new Promise((resolve) => setImmediate(resolve))

t.test('the ticks of one read go out together, in order, before the turn ends, however long sending takes', async (t) => {
  const { fanOut, sent, announced } = fanOutWith(5, 2)
  const pairs = PAIRS.slice(0, 10).map((pair) => pair.symbol)
  let sentAtEndOfTurn = -1
  setImmediate(() => (sentAtEndOfTurn = sent.length))
  for (const pair of pairs) fanOut.onRow(pair, rowBytes(priceRow(pair)))
  t.equal(sent.length, 0, 'nothing is sent while the read is being parsed')
  await endOfTurn()
  t.equal(sentAtEndOfTurn, 10, 'all ten went out before the end of the turn, though sending took four times the slice')
  t.same(
    sent,
    pairs.map((pair) => ({ pair, seq: 1, droppedBefore: 0 })),
  )
  t.same(announced, [], 'one tick per pair: nothing to conflate')
})

t.test('past the slice, the rest of the read conflates to the latest row per pair, in position order, in the same turn', async (t) => {
  const { fanOut, sent, announced, left } = fanOutWith(0, 0)
  const rows = ['BTC-USD', 'ETH-USD', 'BTC-USD', 'BTC-USD', 'ETH-USD', 'SOL-USD']
  for (const pair of rows) fanOut.onRow(pair, rowBytes(priceRow(pair)))
  await endOfTurn()
  t.same(sent, [
    { pair: 'BTC-USD', seq: 1, droppedBefore: 0 },
    { pair: 'BTC-USD', seq: 3, droppedBefore: 1 },
    { pair: 'ETH-USD', seq: 2, droppedBefore: 1 },
    { pair: 'SOL-USD', seq: 1, droppedBefore: 0 },
  ])
  t.same(announced, [2], 'one gap for every pair superseded, before the conflated frames')
  t.same(left, [1, 2, 3, 4, 5, 6], 'every tick, superseded ones too, left for the resume window in position order')
})

t.test('once a turn has spent its slice, its later reads wait for its end, conflated', async (t) => {
  const { fanOut, sent, announced } = fanOutWith(0, 0)
  fanOut.onRow('BTC-USD', rowBytes(priceRow('BTC-USD')))
  await Promise.resolve()
  t.same(sent, [{ pair: 'BTC-USD', seq: 1, droppedBefore: 0 }], 'the first read of the turn goes out when parsed')
  fanOut.onRow('BTC-USD', rowBytes(priceRow('BTC-USD')))
  fanOut.onRow('ETH-USD', rowBytes(priceRow('ETH-USD')))
  fanOut.onRow('BTC-USD', rowBytes(priceRow('BTC-USD')))
  await Promise.resolve()
  t.equal(sent.length, 1, 'a later read of a spent turn costs nothing until the turn ends')
  await endOfTurn()
  t.same(sent.slice(1), [
    { pair: 'ETH-USD', seq: 1, droppedBefore: 0 },
    { pair: 'BTC-USD', seq: 3, droppedBefore: 1 },
  ])
  t.same(announced, [1])

  fanOut.onRow('BTC-USD', rowBytes(priceRow('BTC-USD')))
  await Promise.resolve()
  t.same(sent.at(-1), { pair: 'BTC-USD', seq: 4, droppedBefore: 0 }, 'the next turn opens a new slice')
})

t.test("the end of the ticks sent together is told after each read sent, and after the conflated ones at the turn's end", async (t) => {
  const { fanOut, sent, together } = fanOutWith(0, 0)
  fanOut.onRow('BTC-USD', rowBytes(priceRow('BTC-USD')))
  await Promise.resolve()
  t.same(together, [1], "told once the read's tick was delivered, within the turn")
  fanOut.onRow('ETH-USD', rowBytes(priceRow('ETH-USD')))
  fanOut.onRow('ETH-USD', rowBytes(priceRow('ETH-USD')))
  await Promise.resolve()
  t.same(together, [1], 'a read that waits for the end of the turn has sent nothing yet')
  await endOfTurn()
  t.same(together, [1, 2], 'told again after the conflated tick went out at the end of the turn')
  t.same(
    sent.map(({ pair, seq }) => [pair, seq]),
    [
      ['BTC-USD', 1],
      ['ETH-USD', 2],
    ],
  )
  fanOut.onRow('BTC-USD', rowBytes(priceRow('BTC-USD')))
  await Promise.resolve()
  await endOfTurn()
  t.same(together, [1, 2, 3], 'a turn with nothing conflated tells it once, after its read')
})
