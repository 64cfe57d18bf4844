// The heartbeat rule on a clock the test moves: a connection counts as quiet from the sweep before the one that saw
// something sent to it, gets a heartbeat once quiet for its interval, and is quiet again from then.
import t from 'tap'
import { IdleHeartbeats, SWEEP_MS } from '../idle-heartbeat.ts'

t.test('a heartbeat follows the last frame after at least the interval and at most the interval plus a sweep', async (t) => {
  let now = 0
  const activity = new Map<string, number>([['quiet', 0]])
  const sent: Array<[string, number]> = []
  const heartbeats = new IdleHeartbeats<string>(
    { activity: (connection) => activity.get(connection)!, send: (connection, time) => sent.push([connection, time]) },
    () => now,
  )
  heartbeats.stop() // the test sweeps by hand
  heartbeats.watch('quiet', 1000)
  const sweepUntil = (until: number) => {
    for (; now < until;) {
      now += SWEEP_MS
      heartbeats.sweep()
    }
  }

  sweepUntil(2000)
  t.same(
    sent,
    [
      ['quiet', 1000],
      ['quiet', 2000],
    ],
    'every interval while nothing is sent',
  )

  // a frame goes out at 2,100 ms; the sweep at 2,250 sees it and counts the connection quiet from 2,000
  now = 2100
  activity.set('quiet', 1)
  now = 2000
  sweepUntil(3000)
  t.same(
    sent.slice(2),
    [['quiet', 3000]],
    '1,000 ms after the sweep before the frame: 900 ms after the frame itself, never later than 1,250',
  )

  now = 3100
  heartbeats.sent('quiet') // a reply at 3,100, between two sweeps
  now = 3000
  sweepUntil(4000)
  t.same(sent.slice(3), [], 'a reply counts as sent')
  sweepUntil(4250)
  t.same(sent.slice(3), [['quiet', 4250]], 'and the interval runs from it')

  heartbeats.unwatch('quiet')
  sweepUntil(6000)
  t.equal(sent.length, 4, 'none once unwatched')
})
