import type { PriceBus, TickHandler } from './price-bus.ts'

/** The members of one queue group; ticks go to them in turn. */
interface QueueGroup {
  members: TickHandler[]
  next: number
}

/**
 * The embedded stand-in for NATS: one process, no network. Delivery is asynchronous (a microtask
 * after publish), as it is over a real connection, so code cannot come to rely on re-entrant calls.
 */
export function inProcessPriceBus(): PriceBus {
  const handlers = new Set<TickHandler>()
  const queueGroups = new Map<string, QueueGroup>()
  const latest = new Map<string, Uint8Array>()
  let queue: Array<[string, Uint8Array]> = []
  let closed = false

  const deliver = (): void => {
    const batch = queue
    queue = []
    for (const [pair, row] of batch) {
      for (const handler of handlers) handler(pair, row)
      for (const group of queueGroups.values()) {
        const member = group.members[group.next++ % group.members.length]!
        member(pair, row)
      }
    }
  }

  const joinQueueGroup = (name: string, handler: TickHandler) => {
    const group = queueGroups.get(name) ?? { members: [], next: 0 }
    queueGroups.set(name, group)
    group.members.push(handler)
    return () => {
      const index = group.members.indexOf(handler)
      if (index !== -1) group.members.splice(index, 1)
      if (group.members.length === 0) queueGroups.delete(name)
    }
  }

  return {
    kind: 'in-process',
    publishTick(pair, row) {
      if (closed) return
      latest.set(pair, row)
      if (queue.length === 0) queueMicrotask(deliver)
      queue.push([pair, row])
    },
    subscribeTicks(handler, options = {}) {
      if (options.queueGroup !== undefined) return joinQueueGroup(options.queueGroup, handler)
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
      queueGroups.clear()
    },
  }
}
