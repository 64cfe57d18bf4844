// Fixed-rate windows end on multiples of their length in wall-clock time: every edge's at the same instants,
// whenever it started, and a window end the process was too late for is skipped rather than sent twice.
import t from 'tap'
import { nextWindowEnd } from '../rate-window.ts'

t.test('the first window ends at the next multiple of its length, whenever the edge started', async (t) => {
  t.equal(nextWindowEnd(200, 1_000_000_001), 1_000_000_200)
  t.equal(nextWindowEnd(200, 1_000_000_199), 1_000_000_200, 'an edge started later ends the same window at the same instant')
  t.equal(nextWindowEnd(200, 1_000_000_200), 1_000_000_200, 'on a boundary: that instant')
  t.equal(nextWindowEnd(1000, 1_733_000_000_123), 1_733_000_001_000)
})

t.test('then one window length after the last, even when the timer fired a moment early or late', async (t) => {
  t.equal(nextWindowEnd(200, 1_000_000_200, 1_000_000_200), 1_000_000_400, 'on time')
  t.equal(nextWindowEnd(200, 1_000_000_199, 1_000_000_200), 1_000_000_400, 'a millisecond early: not the same end again')
  t.equal(nextWindowEnd(200, 1_000_000_230, 1_000_000_200), 1_000_000_400, '30 ms late: the next end keeps its instant')
})

t.test('a process too late for a whole window skips its end: the late rows go out at the next', async (t) => {
  t.equal(nextWindowEnd(50, 1_000_000_180, 1_000_000_050), 1_000_000_200)
  t.equal(nextWindowEnd(50, 1_000_000_200, 1_000_000_050), 1_000_000_250)
})
