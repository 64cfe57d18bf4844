// Concurrent identical loads are joined, results are reused for the ttl, failures are not kept.

import t from 'tap'
import { createCoalescingCache } from '../coalescing-cache.ts'

/** A load the test settles by hand, counting how often it started. */
function manualLoad<Value>() {
  let starts = 0
  let settle: { resolve: (value: Value) => void; reject: (error: Error) => void } | undefined
  return {
    load: () =>
      new Promise<Value>((resolve, reject) => {
        starts++
        settle = { resolve, reject }
      }),
    starts: () => starts,
    resolve: (value: Value) => settle!.resolve(value),
    reject: (error: Error) => settle!.reject(error),
  }
}

t.test('callers of a key that is loading join that load', async (t) => {
  const cache = createCoalescingCache<string>({ ttlMs: 0, maxEntries: 10 })
  const source = manualLoad<string>()
  const callers = Array.from({ length: 5 }, () => cache.get('k', source.load))
  t.equal(source.starts(), 1)
  source.resolve('value')
  t.strictSame(await Promise.all(callers), ['value', 'value', 'value', 'value', 'value'])
  const other = cache.get('other key', source.load)
  t.equal(source.starts(), 2, 'another key loads on its own')
  source.resolve('other')
  t.equal(await other, 'other')
})

t.test('a result is reused until its ttl passes', async (t) => {
  let now = 1_000
  const cache = createCoalescingCache<number>({ ttlMs: 500, maxEntries: 10, now: () => now })
  let loads = 0
  const load = async () => ++loads
  t.equal(await cache.get('k', load), 1)
  now += 499
  t.equal(await cache.get('k', load), 1, 'still fresh')
  now += 1
  t.equal(await cache.get('k', load), 2, 'expired at the ttl')
})

t.test('a failure reaches every joined caller and is not kept', async (t) => {
  const cache = createCoalescingCache<string>({ ttlMs: 10_000, maxEntries: 10 })
  const source = manualLoad<string>()
  const callers = [cache.get('k', source.load), cache.get('k', source.load)]
  source.reject(new Error('upstream down'))
  for (const caller of callers) await t.rejects(caller, { message: 'upstream down' })
  const retry = cache.get('k', source.load)
  t.equal(source.starts(), 2, 'the next call loads again')
  source.resolve('back')
  t.equal(await retry, 'back')
})

t.test('at most maxEntries results are kept, the oldest dropped first', async (t) => {
  const cache = createCoalescingCache<string>({ ttlMs: 10_000, maxEntries: 2 })
  let loads = 0
  const load = (value: string) => async () => {
    loads++
    return value
  }
  await cache.get('a', load('a'))
  await cache.get('b', load('b'))
  await cache.get('c', load('c'))
  t.equal(loads, 3)
  t.equal(await cache.get('c', load('c2')), 'c', 'the newest are kept')
  t.equal(await cache.get('b', load('b2')), 'b')
  t.equal(await cache.get('a', load('a2')), 'a2', 'the oldest was dropped')
  t.equal(loads, 4)
})
