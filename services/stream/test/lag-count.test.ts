import t from 'tap'
import { startLagCount, takeMissed, type LagCounted } from '../lag-count.ts'
import { PublishedTicks } from '../published-ticks.ts'

const ROW = Buffer.from('{}')

/** A published state where pair 0 is at seq `first` and pair 1 at seq `second`. */
function publishedAt(first: number, second: number): PublishedTicks {
  const published = new PublishedTicks()
  published.record(0, first, ROW)
  published.record(1, second, ROW)
  return published
}

t.test('a filtered connection misses the ticks of its own pairs only, each once', async (t) => {
  const published = publishedAt(10, 20)
  const connection: LagCounted = { filter: new Set([0]), lagBaseline: 0 }
  startLagCount(connection, published)
  published.record(0, 13, ROW)
  published.record(1, 29, ROW)
  t.equal(takeMissed(connection, published), 3, 'pair 0 went from 10 to 13; pair 1 is not its')
  t.equal(takeMissed(connection, published), 0, 'taken: the count goes on from now')
  published.record(0, 14, ROW)
  t.equal(takeMissed(connection, published), 1)
})

t.test('a connection of every pair counts them all, with what it had missed before the count started', async (t) => {
  const published = publishedAt(10, 20)
  const connection: LagCounted = { filter: null, lagBaseline: 0 }
  startLagCount(connection, published, 5)
  published.record(0, 12, ROW)
  published.record(1, 21, ROW)
  t.equal(takeMissed(connection, published), 5 + 2 + 1)
})
