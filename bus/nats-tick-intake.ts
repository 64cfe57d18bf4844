// A process's one way in for ticks on NATS: one core subscription to the ticks the tick stream republishes
// (JetStream RePublish). Each tick comes once, after it is stored, with its position (the stream sequence, header
// `Nats-Sequence`) and the publisher's per-pair seq (`Price-Seq`). It feeds every reader of the process: the
// snapshot's materializer and the live candles take ticks as they come; each follower of the tick log takes them
// in position order, with whatever the subscription missed read from the stream (position-order.ts).
// Without it a process took each tick twice: on its subject for the readers, and from the stream for the
// followers, through an ordered consumer that pulled, parsed and tracked every message.
import type { NatsConnection } from '@nats-io/transport-node'
import type { Logger } from '../kit/logger.ts'
import { retriedAtStart } from '../kit/retried-at-start.ts'
import { headerNumber } from './header-numbers.ts'
import { CONSUMER_RETRY_MS, lastPosition, perPairSeqs, publishedSeqOf, tickStreamReader } from './nats-tick-log.ts'
import { PositionOrder, type PositionedTick } from './position-order.ts'
import type { TickHandler, TickLog } from './price-bus.ts'
import { sharedFeed } from './shared-feed.ts'
import type { BusNames } from './subjects.ts'

/**
 * How long the ticks a subscription missed are read for before they are skipped as lost (announced to the stream's
 * clients by their seq jumps): longer than a stream leader's change, short of holding every client for a JetStream
 * without a meta leader.
 */
const HOLE_GIVE_UP_MS = 5_000
/** the stream sequence of a republished message, from the header JetStream puts it in */
const positionOf = headerNumber('Nats-Sequence')

export interface TickIntake {
  /** every tick as it arrives, each pair's in publish order: for readers that need no position */
  subscribe(handler: TickHandler): () => void
  /** the tick log's `follow`: the ticks after a position, then every new one, in position order */
  follow: TickLog['follow']
}

export function natsTickIntake(nc: NatsConnection, names: BusNames, log: Logger): TickIntake {
  const take = sharedFeed<[PositionedTick]>((deliver) => {
    const subscription = nc.subscribe(names.allNumberedTicks, {
      callback(error, message) {
        if (error) return log.warn({ err: error }, 'numbered tick subscription error')
        const position = positionOf(message)
        if (position === undefined) return
        deliver({ pair: names.pairOfNumberedTickSubject(message.subject), row: message.data, position, seq: publishedSeqOf(message) })
      },
    })
    return () => subscription.unsubscribe()
  })
  const read = tickStreamReader(nc, names)
  const streamLast = () => lastPosition(nc, names)
  const readFailed = (error: unknown) => log.warn({ err: error }, 'reading the tick stream failed, trying again shortly')

  return {
    subscribe: (handler) => take((tick) => handler(tick.pair, tick.row, tick.seq)),
    follow(handler, { after = 0 } = {}) {
      const seqOfPair = perPairSeqs()
      const order = new PositionOrder(
        after,
        (tick) => handler({ pair: tick.pair, row: tick.row, seq: seqOfPair(tick.pair, tick.seq), position: tick.position }),
        read,
        {
          onReadError: readFailed,
          retryMs: CONSUMER_RETRY_MS,
          giveUpAfterMs: HOLE_GIVE_UP_MS,
          onGivenUp: (from, to) =>
            log.error(
              { from, to, afterMs: HOLE_GIVE_UP_MS },
              'ticks the subscription missed could not be read from the tick stream: skipped as lost',
            ),
        },
      )
      const untake = take((tick) => order.arrive(tick))
      let stopped = false
      // ticks lost in a reconnection show as a hole at the next tick; in a quiet market there may be none for long
      void (async () => {
        for await (const status of nc.status()) {
          if (stopped) break
          if (status.type === 'reconnect') void streamLast().then((position) => order.catchUpTo(position), readFailed)
        }
      })()
      // once the server has the subscription, every tick after the stream's last comes on it
      const ready = (async () => {
        await nc.flush()
        await order.catchUpTo(await retriedAtStart(streamLast))
      })()
      return {
        ready,
        stop() {
          stopped = true
          untake()
          order.stop()
        },
      }
    },
  }
}
