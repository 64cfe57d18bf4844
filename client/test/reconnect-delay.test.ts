import t from 'tap'
import { seededRandom } from '../../kit/seeded-random.ts'
import { startTestEdge } from '../../test/support/edge-harness.ts'
import { EVENT_DEADLINE_MS, withDeadline } from '../../test/support/wait.ts'
import { nodeSocket } from '../src/node.ts'
import { PriceStreamClient } from '../src/price-stream-client.ts'
import { reconnectDelayMs } from '../src/reconnect-delay.ts'

const base = { initialMs: 100, maxMs: 1_000 }

t.test('full jitter: each wait is drawn below a ceiling that doubles per attempt up to maxMs, repeatable with a seed', async (t) => {
  const waits = (seed: number) => {
    const random = seededRandom(seed)
    return Array.from({ length: 8 }, (_, attempt) => reconnectDelayMs({ ...base, attempt, random }))
  }
  const first = waits(7)
  t.same(waits(7), first, 'the same seed, the same waits')
  t.not(waits(8).join(), first.join(), 'another seed, other waits')
  const check = seededRandom(7)
  first.forEach((wait, attempt) => {
    const ceiling = Math.min(1_000, 100 * 2 ** attempt)
    t.equal(wait, check() * ceiling, `attempt ${attempt}: the draw times a ceiling of ${ceiling} ms`)
    t.ok(wait >= 0 && wait < ceiling, `attempt ${attempt}: within [0, ${ceiling})`)
  })
})

t.test('full jitter spreads a crowd over the whole window', async (t) => {
  const random = seededRandom(1)
  const waits = Array.from({ length: 10_000 }, () => reconnectDelayMs({ ...base, attempt: 3, random }))
  const tenths = Array.from({ length: 10 }, (_, tenth) => waits.filter((wait) => Math.floor(wait / 80) === tenth).length)
  t.ok(
    tenths.every((count) => count > 900 && count < 1_100),
    `each tenth of [0, 800) ms holds about a tenth of 10,000 clients: ${tenths.join(', ')}`,
  )
})

t.test('Retry-After is a floor, with up to a second of jitter above it', async (t) => {
  const random = seededRandom(3)
  for (let attempt = 0; attempt < 200; attempt++) {
    const wait = reconnectDelayMs({ ...base, attempt: 0, retryAfterSeconds: 4, random })
    if (wait < 4_000 || wait >= 5_000) t.fail(`a wait of ${wait} ms for Retry-After: 4`)
  }
  const ceilingAbove = reconnectDelayMs({ initialMs: 100, maxMs: 60_000, attempt: 10, retryAfterSeconds: 1, random: () => 0.5 })
  t.equal(ceilingAbove, 30_000, 'a backoff longer than Retry-After is kept')
})

t.test('the client waits out a 503 of the admission rate as the seeded backoff says', async (t) => {
  // the admission's clock held still: the second client is refused however long the first took
  const edge = await startTestEdge({ env: { STREAM_UPGRADES_PER_SECOND: '1', STREAM_UPGRADE_BURST: '1' }, upgradeClock: () => 0 })
  t.teardown(edge.stop)
  const first = new PriceStreamClient({ openSocket: nodeSocket(), baseUrl: edge.baseUrl }).start()
  t.teardown(() => first.close())
  await withDeadline(new Promise((resolve) => first.once('snapshot', resolve)), EVENT_DEADLINE_MS, 'the first snapshot')

  const second = new PriceStreamClient({ openSocket: nodeSocket(), baseUrl: edge.baseUrl, random: seededRandom(11) })
  const disconnected = new Promise<{ retryInMs: number | undefined }>((resolve) => second.once('disconnected', resolve))
  second.start()
  const { retryInMs } = await withDeadline(disconnected, EVENT_DEADLINE_MS, 'the refusal')
  await second.close()
  // one client refused at 1 upgrade/s: the server's Retry-After is 1 or 2 seconds
  const expected = [1, 2].map((seconds) =>
    reconnectDelayMs({ attempt: 0, initialMs: 500, maxMs: 30_000, retryAfterSeconds: seconds, random: seededRandom(11) }),
  )
  t.ok(expected.includes(retryInMs!), `the wait (${retryInMs} ms) is the seeded draw above Retry-After (${expected.join(' or ')})`)
})
