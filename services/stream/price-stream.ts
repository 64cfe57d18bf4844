import { ServiceError } from '../../kit/errors.ts'
import type { Logger } from '../../kit/logger.ts'
import type { Metrics } from '../../kit/metrics.ts'
import { pairBySymbol } from '../../schemas/pairs.ts'
import type { StreamConfig } from './config.ts'
import type { HttpServer, Route } from '../http/http-server.ts'
import type { UpgradeRoute } from '../http/upgrade-route.ts'
import { frameworkErrorBody } from '../http/error-bodies.ts'
import { jsonReply } from '../http/reply.ts'
import type { Materializer } from '../snapshot/materializer.ts'
import { applyClientMessage, MAX_CLIENT_MESSAGE_BYTES, rejected } from './client-messages.ts'
import type { StreamConnection } from './connection.ts'
import { Delivery } from './delivery.ts'
import { createFanOut } from './fan-out.ts'
import { replyFrame } from './frames.ts'
import { startHeartbeat } from './heartbeat.ts'
import { MessageBudget } from './message-budget.ts'
import { PublishedTicks } from './published-ticks.ts'
import { SnapshotCache } from './snapshot-cache.ts'
import { UpgradeAdmission } from './upgrade-admission.ts'
import { UpgradeGate, type RejectionReason } from './upgrade-gate.ts'

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
  materializer: Materializer
  config: StreamConfig
  logger: Logger
  metrics: Metrics
}

export interface PriceStream {
  /** answers a plain GET of the stream path (no upgrade) with 426 */
  routes: Route[]
  /** refuses new upgrades, lets buffered frames drain, then closes every socket with 1001 */
  stop(): Promise<void>
}

/** `WS /v1/prices/stream` (spec 4.3, 6): the snapshot, then ticks for the connection's filter. */
export function startPriceStream(options: PriceStreamOptions): PriceStream {
  const { server, config, metrics } = options
  const log = options.logger.child({ module: 'price-stream' })
  const published = new PublishedTicks()
  for (const [symbol, row] of options.materializer.rows()) published.record(pairBySymbol(symbol)!.id, 0, row)

  const delivery = new Delivery({ app: server.app, published, slowClientBytes: config.STREAM_SLOW_CLIENT_BYTES, metrics })
  const fanOut = createFanOut({
    published,
    sliceMs: config.STREAM_FANOUT_SLICE_MS,
    deliver: (pairId, frame, droppedBefore) => delivery.deliverTick(pairId, frame, droppedBefore),
    announceConflation(dropped) {
      metrics.streamConflatedTicks.inc(dropped)
      delivery.announceConflation(dropped)
    },
  })
  const stopRows = options.materializer.onRow(fanOut.onRow)
  const gate = new UpgradeGate({ maxConnectionsPerIp: config.STREAM_MAX_CONNECTIONS_PER_IP, maxConnections: config.STREAM_MAX_CONNECTIONS })
  const upgradeRate = new UpgradeAdmission({
    perSecond: config.STREAM_UPGRADES_PER_SECOND,
    burst: config.STREAM_UPGRADE_BURST,
    maxRetrySeconds: config.STREAM_UPGRADE_RETRY_MAX_SECONDS,
  })
  const messagesPerMinute = config.RATE_LIMITS_ENABLED ? config.STREAM_MESSAGES_PER_SOCKET_PER_MINUTE : Infinity
  const snapshots = new SnapshotCache(published)

  // Snapshots go out just after the open callback rather than in it: inside it the socket is corked,
  // and uWS assembles a message larger than its 16 KB cork buffer in the socket's own send buffer, which
  // keeps that capacity for the connection's lifetime (some 30 KB per idle connection).
  const opening = new Set<StreamConnection>()
  const start = (connection: StreamConnection) => {
    opening.delete(connection)
    delivery.add(connection, snapshots.frameFor(connection.filter))
  }
  const startOpening = () => {
    for (const connection of opening) start(connection)
  }
  const countConnections = () => metrics.streamConnections.set(opening.size + delivery.size)

  const refused = (reason: RejectionReason | 'admission_rate', ip: string) => {
    metrics.streamRejectedUpgrades.labels(reason).inc()
    log.debug({ reason, ip }, 'stream upgrade refused')
  }

  const upgrades: UpgradeRoute<StreamConnection> = {
    path: STREAM_PATH,
    budget: 'streamUpgrades',
    budgetRefusal: (_budget, decision) =>
      new ServiceError(
        'rate_limited',
        `too many stream upgrades from this address (${decision.limit} per minute): retry in ${decision.resetSeconds} seconds`,
        { details: { retryAfterSeconds: decision.resetSeconds, limit: { upgradesPerIpPerMinute: decision.limit } } },
      ),
    onRefused: (reason, ip) => refused(reason === 'origin' ? 'origin' : 'upgrade_rate', ip),
    admit({ requestId, clientIp, budgetKey, query }) {
      // the replica's admission rate first: a reconnect storm is spread out before any snapshot is written
      // a 503 is the replica's state (its admission rate, its ceiling, its shutdown), so it spends none
      // of the client's upgrade budget: a client that honours Retry-After is not pushed into 429s
      const tooMany = upgradeRate.refusal()
      if (tooMany) {
        refused('admission_rate', clientIp)
        const reply = { status: 503, body: tooMany.body, contentType: 'application/json', headers: tooMany.headers }
        return { admitted: false, reply, refundsBudget: true }
      }
      const admission = gate.admit(budgetKey, query)
      if (!admission.admitted) {
        refused(admission.reason, clientIp)
        const { status, body, headers } = admission
        return { admitted: false, reply: { status, body, contentType: 'application/json', headers }, refundsBudget: status === 503 }
      }
      const connection: StreamConnection = {
        requestId,
        ip: clientIp,
        budgetKey,
        filter: admission.filter,
        mode: 'shared',
        lagBaseline: 0,
        answeredPing: true,
        messages: new MessageBudget(messagesPerMinute, MESSAGE_WINDOW_MS),
        socket: undefined,
      }
      return { admitted: true, userData: connection }
    },
    abandon: (connection) => gate.release(connection.budgetKey),
  }

  server.addWebSocket(upgrades, {
    compression: 0,
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
      {
        method: 'GET',
        path: STREAM_PATH,
        handle: () =>
          jsonReply(426, frameworkErrorBody(426, 'this is a WebSocket endpoint: connect with a WebSocket client'), {
            upgrade: 'websocket',
          }),
      },
    ],
    async stop() {
      gate.close()
      stopRows()
      fanOut.stop()
      heartbeat.stop()
      clearInterval(sampleBuffers)
      const drained = await untilDrained([...delivery.connections()], config.STREAM_DRAIN_TIMEOUT_MS)
      const connections = [...opening, ...delivery.connections()]
      for (const connection of connections) connection.socket?.end(1001, 'going away')
      log.info({ connections: connections.length, drained }, 'price stream closed')
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
