import { randomBytes } from 'node:crypto'
import {
  DEFAULT_RESUME_WINDOW_SECONDS,
  type LatestRow,
  type NumberedTick,
  type PriceBus,
  type TickHandler,
  type TickLog,
} from './price-bus.ts'

/** The members of one queue group; ticks go to them in turn. */
interface QueueGroup {
  members: TickHandler[]
  next: number
}

/**
 * The embedded stand-in for NATS: one process, no network. Delivery is asynchronous (a microtask
 * after publish), as it is over a real connection, so code cannot come to rely on re-entrant calls.
 */
export function inProcessPriceBus(options: { resumeWindowSeconds?: number } = {}): PriceBus {
  const handlers = new Set<TickHandler>()
  const queueGroups = new Map<string, QueueGroup>()
  const latest = new Map<string, LatestRow>()
  const followers = new Set<(tick: NumberedTick) => void>()
  const seqs = new Map<string, number>()
  let position = 0
  let queue: NumberedTick[] = []
  let closed = false

  const deliver = (): void => {
    const batch = queue
    queue = []
    for (const tick of batch) {
      const { pair, row, seq } = tick
      for (const follower of followers) follower(tick)
      for (const handler of handlers) handler(pair, row, seq)
      for (const group of queueGroups.values()) {
        const member = group.members[group.next++ % group.members.length]!
        member(pair, row, seq)
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
      const seq = (seqs.get(pair) ?? 0) + 1
      seqs.set(pair, seq)
      latest.set(pair, { row, seq })
      if (queue.length === 0) queueMicrotask(deliver)
      queue.push({ pair, row, seq, position: ++position })
    },
    tickLog: inProcessTickLog(followers, seqs, options.resumeWindowSeconds ?? DEFAULT_RESUME_WINDOW_SECONDS),
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
      followers.clear()
      queueGroups.clear()
    },
  }
}

/**
 * The numbering of the embedded bus: in memory, for the life of the process, under an epoch drawn at start
 * (a restarted process numbers afresh, and cursors of the previous one are foreign). Nothing is retained
 * here: the edge in the same process keeps its own window.
 */
function inProcessTickLog(followers: Set<(tick: NumberedTick) => void>, seqs: Map<string, number>, windowSeconds: number): TickLog {
  return {
    windowSeconds,
    epoch: `${Date.now().toString(36)}${randomBytes(3).readUIntBE(0, 3).toString(36)}`,
    follow(handler) {
      followers.add(handler)
      return { ready: Promise.resolve(), stop: () => followers.delete(handler) }
    },
    latestSeqs: async () => new Map(seqs),
  }
}
