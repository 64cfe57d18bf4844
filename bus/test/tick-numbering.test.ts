// The deployment's numbering on NATS: every reader sees the same seq and position for the same tick, a
// publisher that starts again continues each pair's seq (here from the tick stream), a reader that starts
// later is handed the retained ticks with the same numbers, and the embedded bus numbers the same way in memory.
import t, { type Test } from 'tap'
import { randomUUID } from 'node:crypto'
import { inProcessPriceBus } from '../in-process-price-bus.ts'
import { natsPriceBus } from '../nats-price-bus.ts'
import type { NumberedTick, PriceBus } from '../price-bus.ts'
import { startNats } from '../../test/support/servers.ts'
import { silentLogger } from '../../test/support/silent-logger.ts'
import { waitFor } from '../../test/support/wait.ts'

const nats = await startNats()
t.teardown(() => nats.dispose())

const numbers = (ticks: NumberedTick[]) => ticks.map(({ pair, seq, position }) => ({ pair, seq, position }))

async function follow(t: Test, bus: PriceBus, after?: number) {
  const ticks: NumberedTick[] = []
  const follower = bus.tickLog.follow((tick) => ticks.push(tick), { after })
  t.teardown(() => follower.stop())
  await follower.ready
  return ticks
}

t.test('NATS: two readers see the same numbers; a publisher started again goes on counting each pair', async (t) => {
  const namespace = `t${randomUUID().slice(0, 8)}`
  const open = (name: string, publishes = false) =>
    natsPriceBus({ servers: nats.url, namespace, name, publishes, latestWriteIntervalMs: 20, logger: silentLogger() })
  const [first, second] = await Promise.all([open('reader-1'), open('reader-2')])
  t.teardown(() => Promise.all([first.close(), second.close()]))
  t.equal(first.tickLog.epoch, second.tickLog.epoch, 'one epoch: the tick stream')
  const [seenByFirst, seenBySecond] = await Promise.all([follow(t, first), follow(t, second)])

  const publisher = await open('publisher', true)
  for (const pair of ['BTC-USD', 'ETH-USD', 'BTC-USD']) publisher.publishTick(pair, Buffer.from(`{"pair":"${pair}"}`))
  await publisher.close()
  const restarted = await open('publisher-again', true)
  t.teardown(() => restarted.close())
  restarted.publishTick('BTC-USD', Buffer.from('{"pair":"BTC-USD"}'))

  const expected = [
    { pair: 'BTC-USD', seq: 1, position: 1 },
    { pair: 'ETH-USD', seq: 1, position: 2 },
    { pair: 'BTC-USD', seq: 2, position: 3 },
    { pair: 'BTC-USD', seq: 3, position: 4 },
  ]
  await waitFor(() => seenByFirst.length === 4 && seenBySecond.length === 4, { what: 'four ticks on both readers' })
  t.same(numbers(seenByFirst), expected)
  t.same(numbers(seenBySecond), expected)

  const late = await open('reader-3')
  t.teardown(() => late.close())
  t.same(numbers(await follow(t, late)), expected, 'a reader that starts later is handed the retained ticks, the same numbers')
  t.same(numbers(await follow(t, late, 2)), expected.slice(2), 'or those after a position: a replay from a cursor')
})

t.test('embedded: the in-process bus numbers per pair and overall, under an epoch of its own', async (t) => {
  const bus = inProcessPriceBus()
  const other = inProcessPriceBus()
  t.not(bus.tickLog.epoch, other.tickLog.epoch, 'each process numbers under its own epoch')
  const ticks = await follow(t, bus)
  for (const pair of ['BTC-USD', 'ETH-USD', 'BTC-USD']) bus.publishTick(pair, Buffer.from('{}'))
  await waitFor(() => ticks.length === 3, { what: 'three ticks' })
  t.same(numbers(ticks), [
    { pair: 'BTC-USD', seq: 1, position: 1 },
    { pair: 'ETH-USD', seq: 1, position: 2 },
    { pair: 'BTC-USD', seq: 2, position: 3 },
  ])
  t.same(
    [...(await bus.tickLog.latestSeqs())],
    [
      ['BTC-USD', 2],
      ['ETH-USD', 1],
    ],
  )
})
