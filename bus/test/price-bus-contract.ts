// One contract for every PriceBus adapter: the embedded one must behave as the NATS one does.
import type { Test } from 'tap'
import type { PriceBus } from '../price-bus.ts'
import { waitFor } from '../../test/support/wait.ts'

export interface BusPair {
  publisher: PriceBus
  subscriber: PriceBus
  close(): Promise<void>
}

const bytes = (text: string) => new TextEncoder().encode(text)
const text = (data: Uint8Array) => new TextDecoder().decode(data)

export function priceBusContract(t: Test, openPair: () => Promise<BusPair>): void {
  t.test('delivers every tick with its pair, in publish order per pair', async (t) => {
    const { publisher, subscriber, close } = await openPair()
    t.teardown(close)
    const seen: string[] = []
    subscriber.subscribeTicks((pair, row) => seen.push(`${pair}=${text(row)}`))
    await subscriber.flush()
    for (let i = 1; i <= 3; i++) {
      publisher.publishTick('BTC-USD', bytes(`{"n":${i}}`))
      publisher.publishTick('EUR-USD', bytes(`{"n":${i * 10}}`))
    }
    await waitFor(() => seen.length === 6, { what: '6 ticks' })
    t.same(
      seen.filter((entry) => entry.startsWith('BTC-USD')),
      ['BTC-USD={"n":1}', 'BTC-USD={"n":2}', 'BTC-USD={"n":3}'],
    )
    t.same(
      seen.filter((entry) => entry.startsWith('EUR-USD')),
      ['EUR-USD={"n":10}', 'EUR-USD={"n":20}', 'EUR-USD={"n":30}'],
    )
  })

  t.test('keeps the newest row per pair for readers that start later', async (t) => {
    const { publisher, subscriber, close } = await openPair()
    t.teardown(close)
    publisher.publishTick('ETH-USD', bytes('{"v":1}'))
    publisher.publishTick('ETH-USD', bytes('{"v":2}'))
    publisher.publishTick('XAU-USD', bytes('{"v":3}'))
    await publisher.flush()
    const latest = await subscriber.readLatest()
    t.same(Object.fromEntries([...latest].map(([pair, { row, seq }]) => [pair, `${text(row)}#${seq}`])), {
      'ETH-USD': '{"v":2}#2',
      'XAU-USD': '{"v":3}#1',
    })
  })

  t.test("hands every subscriber each tick's per-pair seq, counted from 1 for each pair", async (t) => {
    const { publisher, subscriber, close } = await openPair()
    t.teardown(close)
    const seen: string[] = []
    subscriber.subscribeTicks((pair, _, seq) => seen.push(`${pair}#${seq}`))
    const shared: string[] = []
    subscriber.subscribeTicks((pair, _, seq) => shared.push(`${pair}#${seq}`), { queueGroup: 'writers' })
    await subscriber.flush()
    publisher.publishTick('ETH-USD', bytes('{}'))
    publisher.publishTick('SOL-USD', bytes('{}'))
    publisher.publishTick('ETH-USD', bytes('{}'))
    await waitFor(() => seen.length === 3 && shared.length === 3, { what: '3 ticks to each' })
    t.same(seen, ['ETH-USD#1', 'SOL-USD#1', 'ETH-USD#2'])
    t.same(shared, seen)
  })

  t.test('stops delivering after unsubscribe', async (t) => {
    const { publisher, subscriber, close } = await openPair()
    t.teardown(close)
    const kept: string[] = []
    const dropped: string[] = []
    subscriber.subscribeTicks((pair) => kept.push(pair))
    const unsubscribe = subscriber.subscribeTicks((pair) => dropped.push(pair))
    await subscriber.flush()
    publisher.publishTick('SOL-USD', bytes('{}'))
    await waitFor(() => kept.length === 1 && dropped.length === 1, { what: 'first tick' })
    unsubscribe()
    publisher.publishTick('SOL-USD', bytes('{}'))
    await waitFor(() => kept.length === 2, { what: 'second tick' })
    t.equal(dropped.length, 1)
  })

  t.test('a queue group splits the ticks: each reaches exactly one member, plain subscribers get all', async (t) => {
    const { publisher, subscriber, close } = await openPair()
    t.teardown(close)
    const members: string[][] = [[], []]
    const everything: string[] = []
    for (const received of members) subscriber.subscribeTicks((_, row) => received.push(text(row)), { queueGroup: 'writers' })
    subscriber.subscribeTicks((_, row) => everything.push(text(row)))
    await subscriber.flush()
    const published = Array.from({ length: 40 }, (_, i) => `{"n":${i}}`)
    for (const row of published) publisher.publishTick('BTC-USD', bytes(row))
    await waitFor(() => everything.length === 40 && members[0]!.length + members[1]!.length === 40, { what: '40 ticks twice' })
    t.same(everything, published)
    t.same([...members[0]!, ...members[1]!].sort(), [...published].sort(), 'every tick reached one member, none twice')
  })

  t.test('reports itself connected until closed', async (t) => {
    const { publisher, subscriber, close } = await openPair()
    t.equal(publisher.isConnected(), true)
    t.equal(subscriber.isConnected(), true)
    await close()
    t.equal(subscriber.isConnected(), false)
  })
}
