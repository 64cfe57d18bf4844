import t from 'tap'
import { PublishedTicks } from '../published-ticks.ts'
import { TickFrameWriter } from '../frames.ts'
import { fullReplayFrames } from '../replay-frames.ts'
import { replayLatest, replayTicks, resumeOutcome, type ReplayTarget } from '../resume.ts'
import { TickHistory } from '../tick-history.ts'

const row = Buffer.from('{}')

t.test('a cursor older than the window is refused; one within it recovers the ticks after it, of the filter, in order', async (t) => {
  let now = 0
  const history = new TickHistory(300_000, () => now)
  const published = new PublishedTicks()
  for (let position = 1; position <= 3000; position++) {
    now = position * 1000
    const pairId = position % 3
    const seq = Math.ceil(position / 3)
    history.append({ pairId, seq, position, row })
    published.record(pairId, seq, row, position)
  }
  // now 3,000 s: ticks of the last 300 s (positions 2700 to 3000) are kept, and a cursor at 2699 still has every one after it
  t.equal(resumeOutcome({ epoch: 'e', position: 2699 }, 'e', published, history), 'recover')
  t.equal(resumeOutcome({ epoch: 'e', position: 2698 }, 'e', published, history), 'refuse', 'a tick after it has been let go')
  t.equal(resumeOutcome({ epoch: 'f', position: 2999 }, 'e', published, history), 'refuse', 'another epoch')
  t.equal(resumeOutcome({ epoch: 'e', position: 3001 }, 'e', published, history), 'wait', 'not reached yet')
  now += 1000
  t.equal(resumeOutcome({ epoch: 'e', position: 2699 }, 'e', published, history), 'refuse', 'a second later, it is past the window')

  const replayed: number[] = []
  // a visit that cannot send (the client's buffer is full) stops the replay
  const left = history.replayAfter(2990, new Set([1]), (tick) => tick.position < 2995 && replayed.push(tick.position) > 0)
  t.same(replayed, [2992], "the filter's ticks after the cursor, in order")
  t.equal(left, 2, 'what was not sent is counted: 2995 and 2998')
})

// pair 1's seq 6 to 15 never reached the stream (lost publishes); pair 2 goes on without a jump
const UNEVEN_TICKS = [
  { pairId: 1, seq: 5, position: 1 },
  { pairId: 2, seq: 7, position: 2 },
  { pairId: 2, seq: 8, position: 3 },
  { pairId: 1, seq: 16, position: 4 },
  { pairId: 1, seq: 17, position: 5 },
  { pairId: 1, seq: 20, position: 6 },
]

/** A history of UNEVEN_TICKS and a target that notes each frame sent as `<type> <seq or dropped>`. */
function unevenReplay(): { history: TickHistory; target: ReplayTarget; sent: string[] } {
  const history = new TickHistory(300_000)
  for (const tick of UNEVEN_TICKS) history.append({ ...tick, row })
  const sent: string[] = []
  const target: ReplayTarget = {
    send(type, _cursor, frame) {
      const { seq, dropped } = JSON.parse(String(frame)) as { seq?: number; dropped?: number }
      return sent.push(`${type} ${seq ?? dropped}`) > 0
    },
  }
  return { history, target, sent }
}

t.test("a replay announces ticks this edge never had, also between a pair's tick before the cursor and its first after", async (t) => {
  const { history, target, sent } = unevenReplay()
  const frames = fullReplayFrames(new TickFrameWriter())
  const left = replayTicks(target, history, { epoch: 'e', position: 2 }, null, frames, (position) => `e-${position}`)
  t.equal(left, 0)
  t.same(
    sent,
    ['tick 8', 'gap 10', 'tick 16', 'tick 17', 'gap 2', 'tick 20'],
    "a gap before pair 1's first tick after the cursor (seq 5 to 16: 10 missed), and between two replayed ones",
  )
})

t.test(
  'replay=latest: one gap for every tick it folds, missed ones included, then the latest tick per pair in position order',
  async (t) => {
    const { history, target, sent } = unevenReplay()
    const frames = fullReplayFrames(new TickFrameWriter())
    const left = replayLatest(target, history, { epoch: 'e', position: 2 }, null, frames, (position) => `e-${position}`)
    t.equal(left, 0)
    // pair 2: 7 to 8, nothing folded; pair 1: 5 to 20, 14 folded (16, 17 and the 12 this edge never had)
    t.same(sent, ['gap 14', 'tick 8', 'tick 20'])

    const fromStart = unevenReplay()
    replayLatest(fromStart.target, fromStart.history, { epoch: 'e', position: 0 }, null, frames, (position) => `e-${position}`)
    t.same(
      fromStart.sent,
      ['gap 16', 'tick 8', 'tick 20'],
      'with no earlier tick retained, a pair counts from its first retained one (seq 5 and 7), folded too',
    )

    const stopped = unevenReplay()
    let room = 2
    const limited: ReplayTarget = { send: (type, cursor, frame) => room-- > 0 && stopped.target.send(type, cursor, frame) }
    const unsent = replayLatest(limited, stopped.history, { epoch: 'e', position: 2 }, null, frames, (position) => `e-${position}`)
    t.same(stopped.sent, ['gap 14', 'tick 8'], 'stopped at the slow-client limit')
    t.equal(unsent, 1, 'the tick not sent is counted for the next gap')
  },
)

t.test('a slab let go takes the next rows: no new one once the window has turned over, and every retained row intact', async (t) => {
  const SLAB_BYTES = 4 * 1024 * 1024
  // each read of the captured calls hands over those made since the last read
  const slabsMadeSince = t.capture(Buffer, 'allocUnsafeSlow', Buffer.allocUnsafeSlow.bind(Buffer))
  const slabCount = () => slabsMadeSince().filter(({ args }) => args[0] === SLAB_BYTES).length
  const rowOf = (position: number) => Buffer.from(`{"position":${position}}`.padEnd(1000, ' '))
  let now = 0
  // a 10 s window at a tick a millisecond: 10,000 rows of 1,000 bytes retained, spread over three or four slabs
  const history = new TickHistory(10_000, () => now)
  const append = (position: number) => {
    now = position
    history.append({ pairId: position % 83, seq: Math.ceil(position / 83), position, row: rowOf(position) })
  }
  for (let position = 1; position <= 20_000; position++) append(position)
  const madeWhileFilling = slabCount()
  t.ok(madeWhileFilling >= 3 && madeWhileFilling <= 5, `slabs made in the first two windows: ${madeWhileFilling}`)

  // ten more windows: without reuse, 24 more slabs
  for (let position = 20_001; position <= 120_000; position++) append(position)
  t.equal(slabCount(), 0, 'no slab made since')

  const replayed: number[] = []
  const damaged: number[] = []
  history.replayAfter(0, null, (tick) => {
    if (!tick.row.equals(rowOf(tick.position))) damaged.push(tick.position)
    return replayed.push(tick.position) > 0
  })
  t.same(damaged, [], 'every replayed row holds its own bytes')
  t.equal(replayed.length, 10_001, 'the window holds the ticks of the last 10 s')
  t.ok(
    replayed.every((position, index) => position === 110_000 + index),
    'in position order from 110,000, none missing',
  )
})
