import t from 'tap'
import { jumpingClock } from '../../test/support/jumping-clock.ts'
import { retriedAtStart } from '../retried-at-start.ts'

const failing = (times: number) => {
  let calls = 0
  const request = async () => {
    calls++
    if (calls <= times) throw new Error(`timeout ${calls}`)
    return 'answer'
  }
  return { request, calls: () => calls }
}

t.test('a request that times out at first is asked again until it answers', async (t) => {
  const server = failing(2)
  t.equal(await retriedAtStart(server.request, { withinMs: 5_000, everyMs: 10 }), 'answer')
  t.equal(server.calls(), 3)
})

t.test('past the window the start fails with the last failure', async (t) => {
  const server = failing(Infinity)
  const startedAt = Date.now()
  await t.rejects(retriedAtStart(server.request, { withinMs: 200, everyMs: 50 }), { message: /^timeout \d+$/ })
  const elapsed = Date.now() - startedAt
  t.ok(elapsed >= 150, `asked for most of the window (${elapsed} ms)`)
  t.ok(server.calls() >= 2, `asked again (${server.calls()} calls)`)
  t.equal(await retriedAtStart(async () => 1, { withinMs: 0, everyMs: 50 }), 1, 'an answer at the first try is taken at once')
})

t.test('a first failure is asked again even when the process was paused past the window', async (t) => {
  jumpingClock(t, 1_000)
  const server = failing(Infinity)
  await t.rejects(retriedAtStart(server.request, { withinMs: 200, everyMs: 50 }), { message: 'timeout 2' })
  t.equal(server.calls(), 2, 'asked once again, then given up')
})
