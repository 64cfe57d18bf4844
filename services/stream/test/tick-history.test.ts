import t from 'tap'
import { PublishedTicks } from '../published-ticks.ts'
import { resumeOutcome } from '../resume.ts'
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
