// A follower's ticks in position order from a live feed that loses, repeats and swaps: holes are read from the
// stream (here a map standing for it), nothing is handed over twice, and a read that fails is tried again.
import t from 'tap'
import { MAX_WAITING_TICKS, PositionOrder, type PositionedTick, type ReadPositions } from '../position-order.ts'
import { jumpingClock } from '../../test/support/jumping-clock.ts'
import { waitFor } from '../../test/support/wait.ts'

const tick = (position: number): PositionedTick => ({ pair: 'BTC-USD', row: new Uint8Array(), position, seq: position })

/** a stream holding `positions`; each read is recorded, and the first `failures` reads fail */
function fakeStream(positions: Iterable<number>, failures = 0) {
  const held = new Set(positions)
  const reads: [number, number][] = []
  const read: ReadPositions = async (from, to, each) => {
    reads.push([from, to])
    await Promise.resolve()
    if (failures-- > 0) throw new Error('no responders')
    for (let position = from; position <= to; position++) if (held.has(position)) each(tick(position))
  }
  return { read, reads, held }
}

function follower(after: number, read: ReadPositions, giveUpAfterMs = 60_000) {
  const handed: number[] = []
  const errors: unknown[] = []
  const givenUp: [number, number][] = []
  const order = new PositionOrder(after, (tick) => handed.push(tick.position), read, {
    onReadError: (error) => errors.push(error),
    retryMs: 1,
    giveUpAfterMs,
    onGivenUp: (from, to) => givenUp.push([from, to]),
  })
  return { order, handed, errors, givenUp }
}

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, index) => from + index)

t.test('ticks in order are handed over at once, and a repeat is dropped', async (t) => {
  const stream = fakeStream(range(1, 3))
  const { order, handed } = follower(0, stream.read)
  for (const position of [1, 2, 2, 1, 3]) order.arrive(tick(position))
  t.same(handed, [1, 2, 3])
  t.same(stream.reads, [], 'nothing read from the stream')
})

t.test('a hole is read from the stream; the ticks after it wait, then follow in order', async (t) => {
  const stream = fakeStream(range(1, 6))
  const { order, handed } = follower(1, stream.read)
  order.arrive(tick(4))
  order.arrive(tick(3))
  order.arrive(tick(6))
  t.same(handed, [], 'nothing handed over while 2 is missing')
  await waitFor(() => handed.length === 5, { what: 'the hole read' })
  t.same(handed, [2, 3, 4, 5, 6])
  t.same(
    stream.reads,
    [
      [2, 3],
      [5, 5],
    ],
    'the positions before the lowest waiting tick, then the next hole',
  )
  order.arrive(tick(5))
  order.arrive(tick(7))
  t.same(handed, [2, 3, 4, 5, 6, 7], 'after the holes: a repeat dropped, the next handed over at once')
})

t.test('catching up reads to a position; a tick the stream no longer holds is skipped', async (t) => {
  const stream = fakeStream([3, 4, 6])
  const { order, handed } = follower(0, stream.read)
  await order.catchUpTo(6)
  t.same(handed, [3, 4, 6])
  t.equal(order.position, 6)
  await order.catchUpTo(5)
  t.same(stream.reads, [[1, 6]], 'nothing read again for a position already passed')
})

t.test('a read that fails is reported and tried again from where it stopped', async (t) => {
  const stream = fakeStream(range(1, 4), 2)
  const { order, handed, errors } = follower(0, stream.read)
  await order.catchUpTo(4)
  t.same(handed, [1, 2, 3, 4])
  t.equal(errors.length, 2, 'each failure reported')
  t.same(stream.reads, [
    [1, 4],
    [1, 4],
    [1, 4],
  ])
})

t.test(`beyond ${MAX_WAITING_TICKS} waiting ticks, the newest are let go and read from the stream`, async (t) => {
  const newest = MAX_WAITING_TICKS + 12
  const stream = fakeStream(range(1, newest))
  const { order, handed } = follower(0, stream.read)
  // 1 is lost: every later tick waits for it, and the read of 1 takes a turn of the event loop
  for (let position = 2; position <= newest; position++) order.arrive(tick(position))
  await waitFor(() => handed.length === newest, { what: 'every tick handed over' })
  t.same(handed, range(1, newest), 'every position once, in order')
  t.same(
    stream.reads,
    [
      [1, 1],
      [MAX_WAITING_TICKS + 2, newest],
    ],
    'the hole, then those let go',
  )
})

t.test('a stopped follower hands nothing over', async (t) => {
  const stream = fakeStream(range(1, 3))
  const { order, handed } = follower(0, stream.read)
  order.arrive(tick(2))
  order.stop()
  await Promise.resolve()
  order.arrive(tick(1))
  await new Promise((resolve) => setImmediate(resolve))
  t.same(handed, [], 'neither the read under way nor a live tick')
})

t.test('a hole whose reads keep failing is given up after its time, and the ticks after it go on', async (t) => {
  const stream = fakeStream(range(1, 10), Number.POSITIVE_INFINITY)
  const { order, handed, errors, givenUp } = follower(0, stream.read, 50)
  order.arrive(tick(1))
  for (const position of [5, 6]) order.arrive(tick(position))
  await waitFor(() => handed.length === 3, { what: 'the ticks after the hole' })
  t.same(handed, [1, 5, 6], 'the hole skipped, the waiting ticks handed over in order')
  t.same(givenUp, [[2, 4]], 'the positions given up')
  t.ok(errors.length >= 2, `read again until given up (${errors.length} reads failed)`)
  order.arrive(tick(7))
  t.same(handed, [1, 5, 6, 7], 'then the next tick at once')
})

t.test('a first failed read is tried again even when the process was paused past the give-up time', async (t) => {
  jumpingClock(t, 100)
  const stream = fakeStream(range(1, 4), Number.POSITIVE_INFINITY)
  const { order, errors, givenUp } = follower(0, stream.read, 50)
  await order.catchUpTo(4)
  t.same(givenUp, [[1, 4]], 'the positions given up')
  t.equal(errors.length, 2, 'given up at the second failure, not the first')
})
