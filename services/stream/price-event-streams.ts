// The price stream's Server-Sent Events transport: `GET /v1/prices/stream` with `Accept: text/event-stream`,
// admitted as an upgrade is (event-stream-route.ts), its first events (the snapshot, or `resumed` and the
// replay) and its heartbeats. The channel (price-stream.ts) gives it the lanes, resumes and replay it shares with
// the WebSocket transport.
import type { Metrics } from '../../kit/metrics.ts'
import type { Route } from '../http/http-server.ts'
import type { OriginAllowlist } from '../http/origin-allowlist.ts'
import type { RateLimits } from '../http/rate-limits.ts'
import type { Cursor } from './cursor.ts'
import { eventStreamRoute } from './event-stream-route.ts'
import { resumedFrame } from './frames.ts'
import { IdleHeartbeats } from './idle-heartbeat.ts'
import type { PriceChannel } from './price-channel.ts'
import type { ReplayTarget } from './resume.ts'
import type { SseConnection } from './sse-delivery.ts'
import { upgradeBudgetRefusal } from './stream-admission.ts'

export interface PriceEventStreamsOptions {
  path: string
  channel: PriceChannel
  rateLimits: RateLimits
  allowedOrigins: OriginAllowlist
  metrics: Metrics
}

export interface PriceEventStreams {
  route: Route
  /** watched for `?heartbeat=` */
  readonly heartbeatConnections: number
  /** an event stream's client went away */
  aborted(connection: SseConnection): void
  stop(): void
}

export function priceEventStreams(options: PriceEventStreamsOptions): PriceEventStreams {
  const { channel } = options
  const { cursorOf, resumes, replay } = channel
  // `?heartbeat=`: one sweep over the event streams that asked, none per tick
  const heartbeats = new IdleHeartbeats<SseConnection>({
    activity: (connection) => channel.laneOf(connection).published.changesOver(connection.filter),
    send: (connection, time) => channel.laneOf(connection).sse.heartbeat(connection, time),
  })

  // the same frames as events, from the same ticks, under the same ceilings
  const begin = (connection: SseConnection, after: Cursor | undefined) => {
    const { sse, snapshots, published } = channel.laneOf(connection)
    /** its first events are out: ticks from now on (`missed` as `SseDelivery.start` has it), and heartbeats if it asked */
    const live = (missed: number) => {
      sse.start(connection, missed)
      if (connection.heartbeatMs !== undefined) heartbeats.watch(connection, connection.heartbeatMs)
      channel.countConnections()
    }
    const snapshot = () => {
      const { frame, cursor } = snapshots.withCursor(connection.filter, cursorOf, connection.compact)
      sse.send(connection, 'snapshot', cursor, frame)
      live(0)
    }
    if (after === undefined) return snapshot()
    resumes.decide(connection, after, published, (outcome) => {
      if (!connection.open) return
      if (outcome === 'refuse') {
        sse.send(connection, 'resumed', undefined, resumedFrame(undefined))
        return snapshot()
      }
      const cursor = cursorOf(after.position)
      sse.send(connection, 'resumed', cursor, resumedFrame(cursor))
      const target: ReplayTarget = { send: (type, at, frame) => sse.send(connection, type, at, frame) }
      live(replay(target, connection, after, published.position))
    })
  }

  const { gate, upgradeRate } = channel.admission
  return {
    route: eventStreamRoute({
      path: options.path,
      gate,
      upgradeRate,
      rateLimits: options.rateLimits,
      allowedOrigins: options.allowedOrigins,
      budgetRefusal: (decision) => upgradeBudgetRefusal(decision, true),
      sseOf: (rate) => channel.lanes.of(rate).sse,
      begin,
      refused: channel.refused,
      opened: channel.countConnections,
      metrics: options.metrics,
    }),
    get heartbeatConnections() {
      return heartbeats.size
    },
    aborted(connection) {
      resumes.cancel(connection)
      heartbeats.unwatch(connection)
      gate.release(connection.budgetKey)
      channel.countConnections()
    },
    stop: () => heartbeats.stop(),
  }
}
