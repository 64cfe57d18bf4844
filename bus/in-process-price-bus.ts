import type { PriceBus, TickHandler } from './price-bus.ts'

/**
 * The embedded stand-in for NATS: one process, no network. Delivery is asynchronous (a microtask
 * after publish), as it is over a real connection, so code cannot come to rely on re-entrant calls.
 */
export function inProcessPriceBus(): PriceBus {
  const handlers = new Set<TickHandler>()
  const latest = new Map<string, Uint8Array>()
  let queue: Array<[string, Uint8Array]> = []
  let closed = false

  const deliver = (): void => {
    const batch = queue
    queue = []
    for (const [pair, row] of batch) for (const handler of handlers) handler(pair, row)
  }

  return {
    kind: 'in-process',
    publishTick(pair, row) {
      if (closed) return
      latest.set(pair, row)
      if (queue.length === 0) queueMicrotask(deliver)
      queue.push([pair, row])
    },
    subscribeTicks(handler) {
      handlers.add(handler)
      return () => handlers.delete(handler)
    },
    readLatest: async () => new Map(latest),
    flush: async () => {},
    isConnected: () => !closed,
    onConnectionChange: () => () => {},
    async close() {
      closed = true
      handlers.clear()
    },
  }
}
