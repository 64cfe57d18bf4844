import t from 'tap'
import { randomUUID } from 'node:crypto'
import { natsPriceBus } from '../nats-price-bus.ts'
import { startNats } from '../../test/support/servers.ts'
import { priceBusContract } from './price-bus-contract.ts'
import { silentLogger } from '../../test/support/silent-logger.ts'

const nats = await startNats()
t.teardown(() => nats.dispose())
const logger = silentLogger()

priceBusContract(t, async () => {
  // a fresh namespace per test: no test sees another's subjects or bucket
  const namespace = `t${randomUUID().slice(0, 8)}`
  const open = (name: string) => natsPriceBus({ servers: nats.url, namespace, name, logger, latestWriteIntervalMs: 20 })
  const [publisher, subscriber] = await Promise.all([open('publisher'), open('subscriber')])
  return {
    publisher,
    subscriber,
    close: async () => {
      await Promise.all([publisher.close(), subscriber.close()])
    },
  }
})
