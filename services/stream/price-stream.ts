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
import { compressesTicks, compressOptions } from './compression.ts'
import { connectionReplay } from './connection-replay.ts'
import type { StreamConnection } from './connection.ts'
import { formatCursor, type Cursor } from './cursor.ts'
import { createFanOut, type Arrival, type FanOut } from './fan-out.ts'
import { replyFrame, resumedFrame } from './frames.ts'
import { startHeartbeat } from './heartbeat.ts'
import { IdleHeartbeats } from './idle-heartbeat.ts'
import { MessageBudget } from './message-budget.ts'
import { PublishedTicks } from './published-ticks.ts'
import { StreamLanes, type Lane } from './rate-lanes.ts'
import type { ReplayTarget } from './resume.ts'
import { ResumeDecisions } from './resume-decisions.ts'
import type { SseConnection } from './sse-delivery.ts'
import { eventStreamRoute } from './event-stream-route.ts'
import { TickHistory } from './tick-history.ts'
import { decideUpgrade, upgradeBudgetRefusal, type StreamAdmission } from './stream-admission.ts'
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
  const resumes = new ResumeDecisions({ epoch: () => tickLog.epoch, history, metrics })

  const compressTicks = compressesTicks(config.STREAM_COMPRESSION)
  // a row that is not a price row (never the ingestor's) is counted and logged, once per pair and window
  const warnMalformed = throttledWarning(log, "a tick row that is not a price row: compact connections got its pair's previous values")
  const malformedRow = (error: unknown, pairId?: number) => {
    metrics.streamMalformedRows.inc()
    warnMalformed(String(pairId ?? 'replay'), { pairId, err: error })
  }
  // one lane per rate (`?rate=`), for WebSocket and Server-Sent Events alike
  const lanes = new StreamLanes({
    app: server.app,
    published,
    slowClientBytes: config.STREAM_SLOW_CLIENT_BYTES,
    cursorOf,
    compressTicks,
    malformedRow: (pairId, error) => malformedRow(error, pairId),
    metrics,
    onAborted(connection) {
      resumes.cancel(connection)
      eventHeartbeats.unwatch(connection)
      gate.release(connection.budgetKey)
      countConnections()
    },
    onWindowEnd: () => resumes.progressed(),
  })
  const laneOf = (connection: { rate: StreamConnection['rate'] }): Lane => lanes.of(connection.rate)
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
    lanes.start()
    fanOut = createFanOut({
      published,
      sliceMs: config.STREAM_FANOUT_SLICE_MS,
      deliver(tick, droppedBefore, conflated) {
        lanes.deliverTick(tick, droppedBefore, conflated)
      },
      sent(tick) {
        history.append(tick)
        resumes.progressed()
      },
      announceConflation(dropped) {
        metrics.streamConflatedTicks.inc(dropped)
        lanes.announceConflation(dropped)
      },
    })
  })
  const { gate, upgradeRate } = options.admission
  const messagesPerMinute = config.RATE_LIMITS_ENABLED ? config.STREAM_MESSAGES_PER_SOCKET_PER_MINUTE : Infinity

  // Snapshots go out just after the open callback rather than in it: inside it the socket is corked,
  // and uWS assembles a message larger than its 16 KB cork buffer in the socket's own send buffer, which
  // keeps that capacity for the connection's lifetime (some 30 KB per idle connection).
  const opening = new Set<StreamConnection>()
  // `?heartbeat=`: one sweep for each protocol over the connections that asked, none per tick
  const socketHeartbeats = new IdleHeartbeats<StreamConnection>({
    activity: (connection) => laneOf(connection).published.changesOver(connection.filter),
    send: (connection, time) => laneOf(connection).delivery.heartbeat(connection, time),
  })
  const eventHeartbeats = new IdleHeartbeats<SseConnection>({
    activity: (connection) => laneOf(connection).published.changesOver(connection.filter),
    send: (connection, time) => laneOf(connection).sse.heartbeat(connection, time),
  })

  const replay = connectionReplay(history, cursorOf, malformedRow)
  const start = (connection: StreamConnection) => {
    opening.delete(connection)
    const lane = laneOf(connection)
    const after = connection.resumeAfter
    /** its first frames are out and its ticks started: heartbeats too, if it asked */
    const started = () => {
      if (connection.heartbeatMs !== undefined) socketHeartbeats.watch(connection, connection.heartbeatMs)
      countConnections()
    }
    const snapshot = () => {
      lane.delivery.add(connection, snapshotFor(connection, lane))
      started()
    }
    if (after === undefined) return snapshot()
    resumes.decide(connection, after, lane.published, (outcome) => {
      const socket = connection.socket
      if (!socket) return
      if (outcome === 'refuse') {
        socket.send(resumedFrame(undefined))
        return snapshot()
      }
      socket.cork(() => {
        socket.send(resumedFrame(cursorOf(after.position)))
        const limit = config.STREAM_SLOW_CLIENT_BYTES
        const target: ReplayTarget = {
          send: (_type, _cursor, frame) => socket.getBufferedAmount() <= limit && (socket.send(frame, false, compressTicks), true),
        }
        lane.delivery.start(connection, replay(target, connection, after, lane.published.position))
        started()
      })
    })
  }
  const snapshotFor = (connection: StreamConnection, lane: Lane) =>
    connection.withCursor
      ? lane.snapshots.withCursor(connection.filter, cursorOf, connection.compact).frame
      : lane.snapshots.frameFor(connection.filter, connection.compact)

  // Server-Sent Events: the same frames as events, from the same ticks, under the same ceilings
  const beginEvents = (connection: SseConnection, after: Cursor | undefined) => {
    const lane = laneOf(connection)
    const { sse } = lane
    /** its first events are out: ticks from now on (`missed` as `SseDelivery.start` has it), and heartbeats if it asked */
    const live = (missed: number) => {
      sse.start(connection, missed)
      if (connection.heartbeatMs !== undefined) eventHeartbeats.watch(connection, connection.heartbeatMs)
      countConnections()
    }
    const snapshot = () => {
      const { frame, cursor } = lane.snapshots.withCursor(connection.filter, cursorOf, connection.compact)
      sse.send(connection, 'snapshot', cursor, frame)
      live(0)
    }
    if (after === undefined) return snapshot()
    resumes.decide(connection, after, lane.published, (outcome) => {
      if (!connection.open) return
      if (outcome === 'refuse') {
        sse.send(connection, 'resumed', undefined, resumedFrame(undefined))
        return snapshot()
      }
      const cursor = cursorOf(after.position)
      sse.send(connection, 'resumed', cursor, resumedFrame(cursor))
      const target: ReplayTarget = { send: (type, at, frame) => sse.send(connection, type, at, frame) }
      live(replay(target, connection, after, lane.published.position))
    })
  }
  const startOpening = () => {
    for (const connection of opening) start(connection)
  }
  const countConnections = () => {
    let open = opening.size
    for (const lane of lanes.all()) {
      const size = lane.delivery.size + lane.sse.size
      metrics.streamRateConnections.labels(lane.rate).set(size)
      open += size
    }
    metrics.streamConnections.set(open)
    metrics.streamHeartbeatConnections.set(socketHeartbeats.size + eventHeartbeats.size)
  }
  const everySocket = function* () {
    for (const lane of lanes.all()) yield* lane.delivery.connections()
  }

  const refused = (reason: RejectionReason | 'admission_rate', ip: string) => {
    metrics.streamRejectedUpgrades.labels(reason).inc()
    log.debug({ reason, ip }, 'stream upgrade refused')
  }

  const upgrades: UpgradeRoute<StreamConnection> = {
    path: STREAM_PATH,
    budget: 'streamUpgrades',
    budgetRefusal: (_budget, decision) => upgradeBudgetRefusal(decision, false),
    onRefused: (reason, ip) => refused(reason === 'origin' ? 'origin' : 'upgrade_rate', ip),
    admit: ({ requestId, clientIp, budgetKey, query }) =>
      decideUpgrade(
        options.admission,
        clientIp,
        () => gate.admit(budgetKey, query),
        refused,
        (asked): StreamConnection => ({
          requestId,
          ip: clientIp,
          budgetKey,
          filter: asked.filter,
          withCursor: asked.withCursor === true,
          resumeAfter: asked.resumeAfter,
          compact: asked.compact === true,
          foldReplay: asked.foldReplay === true,
          heartbeatMs: asked.heartbeatMs,
          rate: asked.rate,
          mode: 'shared',
          lagBaseline: 0,
          staticsAfter: 0,
          answeredPing: true,
          messages: new MessageBudget(messagesPerMinute, MESSAGE_WINDOW_MS),
          socket: undefined,
        }),
      ),
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
        if (resumes.isWaiting(connection)) return
        if (message.byteLength > MAX_ANSWERED_MESSAGE_BYTES) {
          // past this ceiling a message is not worth a reply: the connection is closed with the reason
          return socket.end(1009, `message of ${message.byteLength} bytes; client messages are at most ${MAX_CLIENT_MESSAGE_BYTES} bytes`)
        }
        const retryInSeconds = connection.messages.take(Date.now())
        const outcome =
          retryInSeconds > 0
            ? rejected('rate_limited', `more than ${messagesPerMinute} messages in a minute: retry in ${retryInSeconds} seconds`)
            : applyClientMessage(connection.filter, isBinary ? undefined : message)
        const { delivery } = laneOf(connection)
        if (outcome.accepted) delivery.changeFilter(connection, outcome.filter)
        delivery.reply(connection, replyFrame(outcome.reply))
        socketHeartbeats.sent(connection)
      } catch (error) {
        log.error({ err: error, requestId: connection.requestId }, 'stream message failed')
        if (connection.socket) socket.end(1011, 'unexpected error')
      }
    },

    drain(socket) {
      const connection = socket.getUserData()
      laneOf(connection).delivery.drained(connection)
    },

    pong(socket) {
      socket.getUserData().answeredPing = true
    },

    close(socket, code) {
      const connection = socket.getUserData()
      opening.delete(connection)
      resumes.cancel(connection)
      laneOf(connection).delivery.remove(connection)
      socketHeartbeats.unwatch(connection)
      connection.socket = undefined
      gate.release(connection.budgetKey)
      countConnections()
      log.debug({ requestId: connection.requestId, code }, 'stream connection closed')
    },
  })

  const sampleBuffers = setInterval(
    () => metrics.streamBufferedBytes.set(lanes.all().reduce((bytes, lane) => bytes + lane.delivery.bufferedBytes(), 0)),
    1000,
  )
  sampleBuffers.unref()

  const heartbeat = startHeartbeat({
    intervalMs: config.STREAM_PING_INTERVAL_MS,
    connections: everySocket,
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
        sseOf: (rate) => lanes.of(rate).sse,
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
      lanes.stop()
      heartbeat.stop()
      socketHeartbeats.stop()
      eventHeartbeats.stop()
      clearInterval(sampleBuffers)
      const drained = await untilDrained([...everySocket()], config.STREAM_DRAIN_TIMEOUT_MS)
      const connections = [...opening, ...everySocket()]
      for (const connection of connections) connection.socket?.end(1001, 'going away')
      for (const connection of resumes.waitingConnections()) (connection as Partial<StreamConnection>).socket?.end(1001, 'going away')
      const eventStreams = lanes.all().reduce((ended, lane) => ended + lane.sse.endAll(), 0)
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
