import { Histogram, Registry } from 'prom-client'
import t from 'tap'
import { hotHistogram } from '../hot-histogram.ts'

const buckets = [0.001, 0.01, 0.1, 1]
const observations: Array<[string, number]> = [
  ['/a', 0.0005],
  ['/a', 0.001],
  ['/a', 0.05],
  ['/a', 3],
  ['/b', 0.2],
]

t.test('exposes what prom-client exposes for the same observations', async (t) => {
  const ours = new Registry()
  const theirs = new Registry()
  const hot = hotHistogram({ name: 'x_seconds', help: 'x', labelName: 'route', buckets, registry: ours })
  const reference = new Histogram({ name: 'x_seconds', help: 'x', labelNames: ['route'], buckets, registers: [theirs] })
  for (const [route, value] of observations) {
    hot.labels(route).observe(value)
    reference.labels(route).observe(value)
  }
  const lines = async (registry: Registry) => (await registry.metrics()).split('\n').filter(Boolean).sort()
  t.same(await lines(ours), await lines(theirs))
  t.match(await ours.metrics(), 'x_seconds_bucket{le="0.001",route="/a"} 2\n')
  t.match(await ours.metrics(), 'x_seconds_count{route="/b"} 1\n')
})

t.test('one series per label value, however often it is asked for', async (t) => {
  const registry = new Registry()
  const hot = hotHistogram({ name: 'y_seconds', help: 'y', labelName: 'route', buckets, registry })
  hot.labels('/a').observe(0.5)
  hot.labels('/a').observe(0.5)
  const text = await registry.metrics()
  t.match(text, 'y_seconds_count{route="/a"} 2\n')
  t.match(text, 'y_seconds_sum{route="/a"} 1\n')
  t.equal(text.match(/y_seconds_count/g)?.length, 1)
})
