import t from 'tap'
import { PublishedTicks } from '../published-ticks.ts'
import { TickFrameWriter } from '../frames.ts'
import { replayTicks, resumeOutcome } from '../resume.ts'
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

t.test("a replay announces ticks this edge never had, also between a pair's tick before the cursor and its first after", async (t) => {
  const history = new TickHistory(300_000)
  // pair 1's seq 6 to 15 never reached the stream (lost publishes); pair 2 goes on without a jump
  const ticks = [
    { pairId: 1, seq: 5, position: 1 },
    { pairId: 2, seq: 7, position: 2 },
    { pairId: 2, seq: 8, position: 3 },
    { pairId: 1, seq: 16, position: 4 },
    { pairId: 1, seq: 17, position: 5 },
    { pairId: 1, seq: 20, position: 6 },
  ]
  for (const tick of ticks) history.append({ ...tick, row })
  const sent: string[] = []
  const target = {
    send(type: 'tick' | 'gap', _cursor: string, frame: Buffer | string) {
      const { seq, dropped } = JSON.parse(String(frame)) as { seq?: number; dropped?: number }
      return sent.push(`${type} ${seq ?? dropped}`) > 0
    },
  }
  const left = replayTicks(target, history, { epoch: 'e', position: 2 }, null, new TickFrameWriter(), (position) => `e-${position}`)
  t.equal(left, 0)
  t.same(
    sent,
    ['tick 8', 'gap 10', 'tick 16', 'tick 17', 'gap 2', 'tick 20'],
    "a gap before pair 1's first tick after the cursor (seq 5 to 16: 10 missed), and between two replayed ones",
  )
})
