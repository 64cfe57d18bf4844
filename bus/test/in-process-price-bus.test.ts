import t from 'tap'
import { inProcessPriceBus } from '../in-process-price-bus.ts'
import { priceBusContract } from './price-bus-contract.ts'

priceBusContract(t, async () => {
  // in one process every role shares one bus instance
  const bus = inProcessPriceBus()
  return { publisher: bus, subscriber: bus, close: () => bus.close() }
})
