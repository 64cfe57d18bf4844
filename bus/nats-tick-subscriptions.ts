import type { NatsConnection, Subscription } from '@nats-io/transport-node'
import type { Logger } from '../kit/logger.ts'
import type { SubscribeOptions, TickHandler } from './price-bus.ts'
import type { BusNames } from './subjects.ts'

/**
 * The core subscriptions of a process's tick readers. Readers that take every tick (the snapshot's
 * materializer, a candle writer without a queue group) share one subscription, so the server sends each
 * tick to the process once and it is parsed once, however many of them read it; a queue group member
 * keeps its own, since the server gives it only its share.
 */
export function natsTickSubscriptions(nc: NatsConnection, names: BusNames, log: Logger) {
  const everyTick = new Set<TickHandler>()
  let shared: Subscription | undefined

  const subscribe = (handle: TickHandler, queue?: string) =>
    nc.subscribe(names.allTicks, {
      queue,
      callback: (error, message) => {
        if (error) return log.warn({ err: error }, 'tick subscription error')
        handle(names.pairOfTickSubject(message.subject), message.data)
      },
    })
  const toEveryReader: TickHandler = (pair, row) => {
    for (const handler of everyTick) handler(pair, row)
  }

  return (handler: TickHandler, { queueGroup }: SubscribeOptions = {}): (() => void) => {
    if (queueGroup !== undefined) {
      const own = subscribe(handler, queueGroup)
      return () => own.unsubscribe()
    }
    everyTick.add(handler)
    shared ??= subscribe(toEveryReader)
    return () => {
      if (!everyTick.delete(handler) || everyTick.size > 0) return
      shared?.unsubscribe()
      shared = undefined
    }
  }
}
