import t from 'tap'
import { startState } from '../deferred-start.ts'

t.test('a deferred start is starting until it settles, then ready or unavailable', async (t) => {
  let succeed!: () => void
  let fail!: (error: Error) => void
  const succeeding = new Promise<void>((resolve) => (succeed = resolve))
  const failing = new Promise<void>((_, reject) => (fail = reject))
  const [ready, unavailable] = [startState(succeeding), startState(failing)]
  t.equal(ready(), 'starting')
  t.equal(unavailable(), 'starting')
  succeed()
  fail(new Error('the chains would not start'))
  await succeeding
  await failing.catch(() => undefined)
  t.equal(ready(), 'ready')
  t.equal(unavailable(), 'unavailable', 'and its rejection is handled: no unhandled rejection ends the process')
})
