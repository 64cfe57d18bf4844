import { Counter, Registry } from 'prom-client'
import t from 'tap'
import { hotLabelledCounter } from '../hot-labelled-counter.ts'

const increments: Array<[string, string, number]> = [
  ['tick', 'real_time', 1],
  ['tick', 'real_time', 1000],
  ['gap', 'real_time', 3],
  ['tick', 'fixed_rate@200ms', 2],
]

t.test('exposes what prom-client exposes for the same increments', async (t) => {
  const ours = new Registry()
  const theirs = new Registry()
  const hot = hotLabelledCounter({ name: 'x_total', help: 'x', labelNames: ['type', 'rate'], registry: ours })
  const reference = new Counter({ name: 'x_total', help: 'x', labelNames: ['type', 'rate'], registers: [theirs] })
  for (const [type, rate, value] of increments) {
    hot.labels(type, rate).inc(value)
    reference.labels(type, rate).inc(value)
  }
  const lines = async (registry: Registry) => (await registry.metrics()).split('\n').filter(Boolean).sort()
  t.same(await lines(ours), await lines(theirs))
  t.match(await ours.metrics(), '# TYPE x_total counter\n')
  t.match(await ours.metrics(), 'x_total{type="tick",rate="real_time"} 1001\n')
})

t.test('without labels, one series, as prom-client exposes it', async (t) => {
  const ours = new Registry()
  const theirs = new Registry()
  hotLabelledCounter({ name: 'w_total', help: 'w', labelNames: [], registry: ours }).labels().inc(5)
  new Counter({ name: 'w_total', help: 'w', registers: [theirs] }).inc(5)
  t.equal(await ours.metrics(), await theirs.metrics())
  t.match(await ours.metrics(), '\nw_total 5\n')
})

t.test('a series held by its caller counts exactly, read at any moment', async (t) => {
  const registry = new Registry()
  const hot = hotLabelledCounter({ name: 'y_total', help: 'y', labelNames: ['type', 'rate'], registry })
  const ticks = hot.labels('tick', 'real_time')
  ticks.inc()
  t.same((await hot.get()).values, [{ labels: { type: 'tick', rate: 'real_time' }, value: 1 }])
  ticks.inc(4)
  hot.labels('tick', 'real_time').inc()
  t.same((await hot.get()).values, [{ labels: { type: 'tick', rate: 'real_time' }, value: 6 }], 'one series per label values')
  registry.resetMetrics()
  t.same((await hot.get()).values, [{ labels: { type: 'tick', rate: 'real_time' }, value: 0 }], 'reset with the registry')
})

t.test('refuses a series named by the wrong number of labels', async (t) => {
  const hot = hotLabelledCounter({ name: 'z_total', help: 'z', labelNames: ['type', 'rate'], registry: new Registry() })
  t.throws(() => hot.labels('tick'), /z_total takes labels type, rate, got 1 values/)
})
