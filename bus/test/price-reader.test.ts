import t from 'tap'
import { randomUUID } from 'node:crypto'
import { natsPriceBus } from '../nats-price-bus.ts'
import { openPriceReader } from '../price-reader.ts'
import { priceRow, rowBytes } from '../../test/support/price-rows.ts'
import { startNats } from '../../test/support/servers.ts'
import { silentLogger } from '../../test/support/silent-logger.ts'

const nats = await startNats()
t.teardown(() => nats.dispose())

t.test('a reader without the edge gets every tick of its pairs and the latest row of every pair', async (t) => {
  const namespace = `t${randomUUID().slice(0, 8)}`
  const bus = await natsPriceBus({
    servers: nats.url,
    namespace,
    name: 'ingestor',
    logger: silentLogger(),
    latestWriteIntervalMs: 20,
  })
  t.teardown(() => bus.close())
  const invalid: Array<[string, string]> = []
  const reader = await openPriceReader({ servers: nats.url, namespace, onInvalid: (pair, reason) => invalid.push([pair, reason]) })
  t.teardown(() => reader.close())

  const ticks = reader.ticks({ pairs: ['BTC-USD', 'XAU-USD'] })
  await ticks.ready
  const btc = priceRow('BTC-USD', { mid: 95_000 })
  bus.publishTick('ETH-USD', rowBytes(priceRow('ETH-USD', { mid: 3400 })))
  bus.publishTick('BTC-USD', rowBytes(btc))
  bus.publishTick('XAU-USD', new TextEncoder().encode('{"not":"a row"}'))
  // a later v1 row may carry a field this reader does not know: it is kept, not refused
  bus.publishTick('XAU-USD', Buffer.from(JSON.stringify({ ...priceRow('XAU-USD', { mid: 4000 }), venueFlag: 'new' })))
  await bus.flush()

  const received = []
  for await (const row of ticks) {
    received.push(row)
    if (received.length === 2) ticks.stop()
  }
  t.same(received[0], btc)
  t.match(received[1], { pair: 'XAU-USD', mid: 4000, venueFlag: 'new' })
  t.same(
    invalid.map(([pair]) => pair),
    ['XAU-USD'],
    'the malformed row is reported, not delivered',
  )

  const latest = await reader.latest()
  t.same([...latest.keys()].sort(), ['BTC-USD', 'ETH-USD', 'XAU-USD'])
  t.equal(latest.get('ETH-USD')?.mid, 3400)
})
