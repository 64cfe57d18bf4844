import type { NatsConnection } from '@nats-io/transport-node'
import type { Logger } from '../kit/logger.ts'
import type { TickIntake } from './nats-tick-intake.ts'
import { publishedSeqOf } from './nats-tick-log.ts'
import type { SubscribeOptions, TickHandler } from './price-bus.ts'
import { sharedFeed } from './shared-feed.ts'
import type { BusNames } from './subjects.ts'

/**
 * The core subscriptions of a process's tick readers. Readers that take every tick (the snapshot's
 * materializer, the live candles, a candle writer without a queue group) share one feed, so the server sends
 * each tick to the process once: the tick intake's, where the tick stream republishes, or else one subscription
 * to the tick subjects. A queue group member keeps its own, since the server gives it only its share.
 */
export function natsTickSubscriptions(nc: NatsConnection, names: BusNames, log: Logger, intake: TickIntake | undefined) {
  const subscribe = (handle: TickHandler, queue?: string) => {
    const subscription = nc.subscribe(names.allTicks, {
      queue,
      callback: (error, message) => {
        if (error) return log.warn({ err: error }, 'tick subscription error')
        handle(names.pairOfTickSubject(message.subject), message.data, publishedSeqOf(message))
      },
    })
    return () => subscription.unsubscribe()
  }
  const everyTick = intake?.subscribe ?? sharedFeed<Parameters<TickHandler>>((deliver) => subscribe(deliver))

  return (handler: TickHandler, { queueGroup }: SubscribeOptions = {}): (() => void) =>
    queueGroup === undefined ? everyTick(handler) : subscribe(handler, queueGroup)
}
