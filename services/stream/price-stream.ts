import { throttledWarning } from '../../kit/throttled-warning.ts'
import type { Logger } from '../../kit/logger.ts'
import type { Metrics } from '../../kit/metrics.ts'
import type { PriceBus } from '../../bus/price-bus.ts'
import { pairBySymbol } from '../../schemas/pairs.ts'
import type { StreamConfig } from './config.ts'
import type { HttpServer, Route } from '../http/http-server.ts'
import type { OriginAllowlist } from '../http/origin-allowlist.ts'
import type { RateLimits } from '../http/rate-limits.ts'
import type { UpgradeRoute } from '../http/upgrade-route.ts'
import type { Materializer } from '../snapshot/materializer.ts'
import { applyClientMessage, MAX_CLIENT_MESSAGE_BYTES, rejected } from './client-messages.ts'
import { CompactTicks } from './compact-frames.ts'
import { compressesTicks, compressOptions } from './compression.ts'
import type { StreamConnection } from './connection.ts'
import { Delivery } from './delivery.ts'
import { formatCursor, type Cursor } from './cursor.ts'
import type { PairFilter } from './pair-filter.ts'
import { createFanOut, type Arrival, type FanOut } from './fan-out.ts'
import { replyFrame, resumedFrame, TickFrameWriter } from './frames.ts'
import { startHeartbeat } from './heartbeat.ts'
import { MessageBudget } from './message-budget.ts'
import { PublishedTicks } from './published-ticks.ts'
import { compactReplayFrames, fullReplayFrames } from './replay-frames.ts'
import { CURSOR_AHEAD_WAIT_MS, replayLatest, replayTicks, resumeOutcome, type ReplayTarget } from './resume.ts'
import { SnapshotCache } from './snapshot-cache.ts'
import { SseDelivery, type SseConnection } from './sse-delivery.ts'
import { eventStreamRoute } from './event-stream-route.ts'
import { TickHistory } from './tick-history.ts'
import { upgradeBudgetRefusal, type StreamAdmission } from './stream-admission.ts'
import type { RejectionReason } from './upgrade-gate.ts'

export const STREAM_PATH = '/v1/prices/stream'

/**
 * Client messages are at most 4 KiB (MAX_CLIENT_MESSAGE_BYTES); a longer one is answered with a `malformed`
 * error up to 64 KiB, closed with 1009 above that, and uWebSockets.js itself drops the TCP connection
 * (no close frame) for a message above 1 MiB, before reading it. It does the same, before the message
 * handler, for a text message that is not UTF-8 (handleFragment's forceClose in its WebSocketContext.h),
 * with no option or hook to send 1007 first; RFC 6455 7.1.7 allows failing a connection that way.
 */
const MAX_ANSWERED_MESSAGE_BYTES = 64 * 1024
const MAX_RECEIVED_MESSAGE_BYTES = 1024 * 1024
const MESSAGE_WINDOW_MS = 60_000

export interface PriceStreamOptions {
  /** the upgrade passes its request pipeline (origin allowlist, the streamUpgrades budget) */
  server: HttpServer
  /** the numbered ticks the stream sends (and keeps for resumes) */
  bus: PriceBus
  /** the rows of pairs with no retained tick, for the first snapshots */
  materializer: Materializer
  /** the per-IP budgets (an event stream draws on the upgrade budget) */
  rateLimits: RateLimits
  /** browser origins allowed to open the stream */
  allowedOrigins: OriginAllowlist
  /** the connection ceilings and admission rate, shared with the replica's other stream paths */
  admission: StreamAdmission
  config: StreamConfig
  logger: Logger
  metrics: Metrics
}

export interface PriceStream {
  /** answers a plain GET of the stream path (no upgrade) with 426 */
  routes: Route[]
  /** resolves once the retained ticks are in (with NATS, the tick stream's window): listen after it */
  ready: Promise<void>
  /** refuses new upgrades, lets buffered frames drain, then closes every socket with 1001 */
  stop(): Promise<void>
}

/** `WS /v1/prices/stream` (spec 4.3, 6): the snapshot, then ticks for the connection's filter. */
export function startPriceStream(options: PriceStreamOptions): PriceStream {
  const { server, config, metrics } = options
  const log = options.logger.child({ module: 'price-stream' })
  const tickLog = options.bus.tickLog
  const cursorOf = (position: number) => formatCursor(tickLog.epoch, position)
  const published = new PublishedTicks()
  const history = new TickHistory(tickLog.windowSeconds * 1000)

  const compressTicks = compressesTicks(config.STREAM_COMPRESSION)
  // a row that is not a price row (never the ingestor's) is counted and logged, once per pair and window
  const warnMalformed = throttledWarning(log, "a tick row that is not a price row: compact connections got its pair's previous values")
  const malformedRow = (error: unknown, pairId?: number) => {
    metrics.streamMalformedRows.inc()
    warnMalformed(String(pairId ?? 'replay'), { pairId, err: error })
  }
  const compact = new CompactTicks(published, (pairId, error) => malformedRow(error, pairId))
  const delivery = new Delivery({
    app: server.app,
    published,
    slowClientBytes: config.STREAM_SLOW_CLIENT_BYTES,
    cursorOf,
    compressTicks,
    compact,
    metrics,
  })
  // until the retained ticks are in, ticks are recorded and kept only: no connection is open yet
  let fanOut: FanOut | undefined
  const follower = tickLog.follow((tick) => {
    const pairId = pairBySymbol(tick.pair)?.id
    if (pairId === undefined) return
    const row = Buffer.isBuffer(tick.row) ? tick.row : Buffer.from(tick.row.buffer, tick.row.byteOffset, tick.row.byteLength)
    const arrival: Arrival = { pairId, seq: tick.seq, position: tick.position, row }
    if (fanOut) return fanOut.onTick(arrival)
    if (tick.seq <= published.seq[pairId]!) return
    published.record(pairId, tick.seq, row, tick.position)
    history.append(arrival)
  })
  const ready = follower.ready.then(async () => {
    // pairs quiet for longer than the window: their row, at the seq the deployment gave it
    const seqs = await tickLog.latestSeqs()
    for (const [symbol, row] of options.materializer.rows()) {
      const pairId = pairBySymbol(symbol)!.id
      if (published.rows[pairId] === undefined) published.record(pairId, Math.max(published.seq[pairId]!, seqs.get(symbol) ?? 0), row)
    }
    fanOut = createFanOut({
      published,
      sliceMs: config.STREAM_FANOUT_SLICE_MS,
      deliver(tick, droppedBefore, conflated) {
        delivery.deliverTick(tick, droppedBefore, conflated)
        sse.deliverTick(tick, droppedBefore, conflated)
      },
      sent(tick) {
        history.append(tick)
        if (awaitingCursor.size > 0) startCaughtUp()
      },
      announceConflation(dropped) {
        metrics.streamConflatedTicks.inc(dropped)
        delivery.announceConflation(dropped)
        sse.announceConflation(dropped)
      },
    })
  })
  const { gate, upgradeRate } = options.admission
  const messagesPerMinute = config.RATE_LIMITS_ENABLED ? config.STREAM_MESSAGES_PER_SOCKET_PER_MINUTE : Infinity
  const snapshots = new SnapshotCache(published)

  // Snapshots go out just after the open callback rather than in it: inside it the socket is corked,
  // and uWS assembles a message larger than its 16 KB cork buffer in the socket's own send buffer, which
  // keeps that capacity for the connection's lifetime (some 30 KB per idle connection).
  const opening = new Set<StreamConnection>()
  // resumes from a cursor another edge had reached and this one has not yet
  const awaitingCursor = new Map<object, { since: number; position: number; begin(outcome: 'recover' | 'refuse'): void }>()
  /** Decides a resume after `after`; one this edge cannot decide yet waits until it reaches the cursor or may wait no longer. */
  const whenResumable = (key: object, after: Cursor, begin: (outcome: 'recover' | 'refuse') => void) => {
    const outcome = resumeOutcome(after, tickLog.epoch, published, history)
    if (outcome === 'recover') return begun(begin, 'recovered')
    if (outcome === 'refuse') return begun(begin, after.epoch === tickLog.epoch ? 'outside_window' : 'other_epoch')
    awaitingCursor.set(key, { since: Date.now(), position: after.position, begin })
    setTimeout(startCaughtUp, CURSOR_AHEAD_WAIT_MS + 1).unref()
  }
  const startCaughtUp = () => {
    const now = Date.now()
    for (const [key, waiting] of awaitingCursor) {
      const reached = published.position >= waiting.position
      if (!reached && now - waiting.since < CURSOR_AHEAD_WAIT_MS) continue
      awaitingCursor.delete(key)
      begun(waiting.begin, reached ? 'recovered' : 'edge_behind')
    }
  }
  /** Begins a decided resume, counted by how it was decided (venue_stream_resumes_total). */
  const begun = (begin: (outcome: 'recover' | 'refuse') => void, how: 'recovered' | 'outside_window' | 'other_epoch' | 'edge_behind') => {
    metrics.streamResumes.labels(how).inc()
    begin(how === 'recovered' ? 'recover' : 'refuse')
  }
  const replayWriter = new TickFrameWriter()
  /** Sends a recovered resume's replay in the connection's format; returns the ticks it did not send. */
  const replay = (target: ReplayTarget, connection: { filter: PairFilter; compact: boolean; foldReplay: boolean }, after: Cursor) => {
    const frames = connection.compact ? compactReplayFrames(history, after.position, malformedRow) : fullReplayFrames(replayWriter)
    return (connection.foldReplay ? replayLatest : replayTicks)(target, history, after, connection.filter, frames, cursorOf)
  }
  const start = (connection: StreamConnection) => {
    opening.delete(connection)
    const after = connection.resumeAfter
    if (after === undefined) return delivery.add(connection, snapshotFor(connection))
    whenResumable(connection, after, (outcome) => {
      const socket = connection.socket
      if (!socket) return
      if (outcome === 'refuse') {
        socket.send(resumedFrame(undefined))
        return delivery.add(connection, snapshotFor(connection))
      }
      socket.cork(() => {
        socket.send(resumedFrame(cursorOf(after.position)))
        const limit = config.STREAM_SLOW_CLIENT_BYTES
        const target: ReplayTarget = {
          send: (_type, _cursor, frame) => socket.getBufferedAmount() <= limit && (socket.send(frame, false, compressTicks), true),
        }
        delivery.start(connection, replay(target, connection, after))
      })
    })
  }
  const snapshotFor = (connection: StreamConnection) =>
    connection.withCursor
      ? snapshots.withCursor(connection.filter, cursorOf, connection.compact).frame
      : snapshots.frameFor(connection.filter, connection.compact)

  // Server-Sent Events: the same frames as events, from the same ticks, under the same ceilings
  const sse = new SseDelivery({
    published,
    slowClientBytes: config.STREAM_SLOW_CLIENT_BYTES,
    cursorOf,
    compact,
    metrics,
    onAborted(connection) {
      awaitingCursor.delete(connection)
      gate.release(connection.budgetKey)
      countConnections()
    },
  })
  const beginEvents = (connection: SseConnection, after: Cursor | undefined) => {
    const snapshot = () => {
      const { frame, cursor } = snapshots.withCursor(connection.filter, cursorOf, connection.compact)
      sse.send(connection, 'snapshot', cursor, frame)
      sse.start(connection, 0)
    }
    if (after === undefined) return snapshot()
    whenResumable(connection, after, (outcome) => {
      if (!connection.open) return
      if (outcome === 'refuse') {
        sse.send(connection, 'resumed', undefined, resumedFrame(undefined))
        return snapshot()
      }
      const cursor = cursorOf(after.position)
      sse.send(connection, 'resumed', cursor, resumedFrame(cursor))
      const target: ReplayTarget = { send: (type, at, frame) => sse.send(connection, type, at, frame) }
      sse.start(connection, replay(target, connection, after))
    })
  }
  const startOpening = () => {
    for (const connection of opening) start(connection)
  }
  const countConnections = () => metrics.streamConnections.set(opening.size + delivery.size + sse.size)

  const refused = (reason: RejectionReason | 'admission_rate', ip: string) => {
    metrics.streamRejectedUpgrades.labels(reason).inc()
    log.debug({ reason, ip }, 'stream upgrade refused')
  }

  const upgrades: UpgradeRoute<StreamConnection> = {
    path: STREAM_PATH,
    budget: 'streamUpgrades',
    budgetRefusal: (_budget, decision) => upgradeBudgetRefusal(decision, false),
    onRefused: (reason, ip) => refused(reason === 'origin' ? 'origin' : 'upgrade_rate', ip),
    admit({ requestId, clientIp, budgetKey, query }) {
      // the replica's admission rate first: a reconnect storm is spread out before any snapshot is written
      // a 503 is the replica's state (its admission rate, its ceiling, its shutdown), so it spends none
      // of the client's upgrade budget: a client that honours Retry-After is not pushed into 429s
      const tooMany = upgradeRate.refusal()
      if (tooMany) {
        refused('admission_rate', clientIp)
        return { admitted: false, refusal: tooMany, refundsBudget: true }
      }
      const admission = gate.admit(budgetKey, query)
      if (!admission.admitted) {
        refused(admission.reason, clientIp)
        return { admitted: false, refusal: admission.refusal, refundsBudget: admission.refusal.code === 'at_capacity' }
      }
      const connection: StreamConnection = {
        requestId,
        ip: clientIp,
        budgetKey,
        filter: admission.filter,
        withCursor: admission.withCursor === true,
        resumeAfter: admission.resumeAfter,
        compact: admission.compact === true,
        foldReplay: admission.foldReplay === true,
        mode: 'shared',
        lagBaseline: 0,
        staticsAfter: 0,
        answeredPing: true,
        messages: new MessageBudget(messagesPerMinute, MESSAGE_WINDOW_MS),
        socket: undefined,
      }
      return { admitted: true, userData: connection }
    },
    abandon: (connection) => gate.release(connection.budgetKey),
  }

  server.addWebSocket(upgrades, {
    compression: compressOptions(config.STREAM_COMPRESSION),
    maxPayloadLength: MAX_RECEIVED_MESSAGE_BYTES,
    // our heartbeat pings and terminates; uWS's own idle timer and pings stay off
    idleTimeout: 0,
    sendPingsAutomatically: false,
    // a backstop only: ticks stop at the slow-client limit, so only replies can pass it, and a socket
    // this far behind is closed rather than have uWS drop frames silently
    maxBackpressure: 2 * config.STREAM_SLOW_CLIENT_BYTES,
    closeOnBackpressureLimit: 1,

    open(socket) {
      const connection = socket.getUserData()
      connection.socket = socket
      if (opening.size === 0) setImmediate(startOpening)
      opening.add(connection)
      countConnections()
      log.debug(
        { requestId: connection.requestId, ip: connection.ip, pairCount: connection.filter?.size ?? 'all' },
        'stream connection opened',
      )
    },

    message(socket, message, isBinary) {
      const connection = socket.getUserData()
      try {
        // the snapshot is the first frame, even before the reply to a message sent straight after opening
        if (opening.has(connection)) start(connection)
        // a resume waiting for its cursor answers no message before its first frames
        if (awaitingCursor.has(connection)) return
        if (message.byteLength > MAX_ANSWERED_MESSAGE_BYTES) {
          // past this ceiling a message is not worth a reply: the connection is closed with the reason
          return socket.end(1009, `message of ${message.byteLength} bytes; client messages are at most ${MAX_CLIENT_MESSAGE_BYTES} bytes`)
        }
        const retryInSeconds = connection.messages.take(Date.now())
        const outcome =
          retryInSeconds > 0
            ? rejected('rate_limited', `more than ${messagesPerMinute} messages in a minute: retry in ${retryInSeconds} seconds`)
            : applyClientMessage(connection.filter, isBinary ? undefined : message)
        if (outcome.accepted) delivery.changeFilter(connection, outcome.filter)
        delivery.reply(connection, replyFrame(outcome.reply))
      } catch (error) {
        log.error({ err: error, requestId: connection.requestId }, 'stream message failed')
        if (connection.socket) socket.end(1011, 'unexpected error')
      }
    },

    drain(socket) {
      delivery.drained(socket.getUserData())
    },

    pong(socket) {
      socket.getUserData().answeredPing = true
    },

    close(socket, code) {
      const connection = socket.getUserData()
      opening.delete(connection)
      awaitingCursor.delete(connection)
      delivery.remove(connection)
      connection.socket = undefined
      gate.release(connection.budgetKey)
      countConnections()
      log.debug({ requestId: connection.requestId, code }, 'stream connection closed')
    },
  })

  const sampleBuffers = setInterval(() => metrics.streamBufferedBytes.set(delivery.bufferedBytes()), 1000)
  sampleBuffers.unref()

  const heartbeat = startHeartbeat({
    intervalMs: config.STREAM_PING_INTERVAL_MS,
    connections: () => delivery.connections(),
    onTerminate(connection) {
      metrics.streamHeartbeatTerminations.inc()
      log.debug({ requestId: connection.requestId }, 'stream connection terminated: no pong since the previous ping')
    },
  })

  return {
    routes: [
      eventStreamRoute({
        path: STREAM_PATH,
        gate,
        upgradeRate,
        rateLimits: options.rateLimits,
        allowedOrigins: options.allowedOrigins,
        budgetRefusal: (decision) => upgradeBudgetRefusal(decision, true),
        sse,
        begin: beginEvents,
        refused,
        opened: countConnections,
        metrics,
      }),
    ],
    ready,
    async stop() {
      gate.close()
      follower.stop()
      fanOut?.stop()
      heartbeat.stop()
      clearInterval(sampleBuffers)
      const drained = await untilDrained([...delivery.connections()], config.STREAM_DRAIN_TIMEOUT_MS)
      const connections = [...opening, ...delivery.connections()]
      for (const connection of connections) connection.socket?.end(1001, 'going away')
      for (const connection of awaitingCursor.keys()) (connection as Partial<StreamConnection>).socket?.end(1001, 'going away')
      const eventStreams = sse.endAll()
      log.info({ connections: connections.length, eventStreams, drained }, 'price stream closed')
    },
  }
}

/** Resolves true once nothing is buffered for any of the connections, or false at the deadline. */
async function untilDrained(connections: StreamConnection[], timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    if (connections.every((connection) => (connection.socket?.getBufferedAmount() ?? 0) === 0)) return true
    if (Date.now() >= deadline) return false
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}
