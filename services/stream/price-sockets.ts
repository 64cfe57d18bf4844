// The price stream's WebSocket transport: the upgrade (through the shared admission), the first frames (the
// snapshot, or `resumed` and the replay), client messages that change the filter, pings, and the shutdown's
// drain and 1001. The channel (price-stream.ts) gives it the lanes, resumes and replay it shares with the
// event streams.
import type { Logger } from '../../kit/logger.ts'
import type { Metrics } from '../../kit/metrics.ts'
import type { HttpServer } from '../http/http-server.ts'
import type { UpgradeRoute } from '../http/upgrade-route.ts'
import { applyClientMessage, MAX_CLIENT_MESSAGE_BYTES, rejected } from './client-messages.ts'
import type { StreamConnection } from './connection.ts'
import { replyFrame, resumedFrame } from './frames.ts'
import { startHeartbeat } from './heartbeat.ts'
import { IdleHeartbeats } from './idle-heartbeat.ts'
import { MessageBudget } from './message-budget.ts'
import type { PriceChannel } from './price-channel.ts'
import type { Lane } from './rate-lanes.ts'
import type { ReplayTarget } from './resume.ts'
import { streamSocketSettings } from './socket-settings.ts'
import { decideUpgrade, upgradeBudgetRefusal } from './stream-admission.ts'

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

export interface PriceSocketsOptions {
  server: HttpServer
  path: string
  channel: PriceChannel
  logger: Logger
  metrics: Metrics
}

export interface PriceSockets {
  /** upgraded, their first frames not sent yet */
  readonly opening: number
  /** watched for `?heartbeat=` */
  readonly heartbeatConnections: number
  /** every socket past its first frames */
  connections(): Iterable<StreamConnection>
  /** stops pings and heartbeats, lets buffered frames drain (true if all did), then closes every socket with 1001 */
  stop(): Promise<{ connections: number; drained: boolean }>
}

export function priceSockets(options: PriceSocketsOptions): PriceSockets {
  const { server, channel, metrics } = options
  const { config, cursorOf, resumes, replay } = channel
  const log = options.logger
  const messagesPerMinute = config.RATE_LIMITS_ENABLED ? config.STREAM_MESSAGES_PER_SOCKET_PER_MINUTE : Infinity

  // Snapshots go out just after the open callback rather than in it: inside it the socket is corked,
  // and uWS assembles a message larger than its 16 KB cork buffer in the socket's own send buffer, which
  // keeps that capacity for the connection's lifetime (some 30 KB per idle connection).
  const opening = new Set<StreamConnection>()
  // `?heartbeat=`: one sweep over the sockets that asked, none per tick
  const heartbeats = new IdleHeartbeats<StreamConnection>({
    activity: (connection) => channel.laneOf(connection).published.changesOver(connection.filter),
    send: (connection, time) => channel.laneOf(connection).delivery.heartbeat(connection, time),
  })
  const connections = function* () {
    for (const lane of channel.lanes.all()) yield* lane.delivery.connections()
  }

  const start = (connection: StreamConnection) => {
    opening.delete(connection)
    const lane = channel.laneOf(connection)
    const after = connection.resumeAfter
    /** its first frames are out and its ticks started: heartbeats too, if it asked */
    const started = () => {
      if (connection.heartbeatMs !== undefined) heartbeats.watch(connection, connection.heartbeatMs)
      channel.countConnections()
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
          send: (_type, _cursor, frame) => socket.getBufferedAmount() <= limit && (socket.send(frame, false, channel.compressTicks), true),
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
  const startOpening = () => {
    for (const connection of opening) start(connection)
  }

  const { gate } = channel.admission
  const upgrades: UpgradeRoute<StreamConnection> = {
    path: options.path,
    budget: 'streamUpgrades',
    budgetRefusal: (_budget, decision) => upgradeBudgetRefusal(decision, false),
    onRefused: (reason, ip) => channel.refused(reason === 'origin' ? 'origin' : 'upgrade_rate', ip),
    admit: ({ requestId, clientIp, budgetKey, query }) =>
      decideUpgrade(
        channel.admission,
        clientIp,
        () => gate.admit(budgetKey, query),
        channel.refused,
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
          batched: asked.batched === true,
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
    ...streamSocketSettings(config, MAX_RECEIVED_MESSAGE_BYTES),
    // our heartbeat pings and terminates; uWS's own idle timer and pings stay off
    idleTimeout: 0,
    sendPingsAutomatically: false,

    open(socket) {
      const connection = socket.getUserData()
      connection.socket = socket
      if (opening.size === 0) setImmediate(startOpening)
      opening.add(connection)
      channel.countConnections()
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
        const { delivery } = channel.laneOf(connection)
        if (outcome.accepted) delivery.changeFilter(connection, outcome.filter)
        delivery.reply(connection, replyFrame(outcome.reply))
        heartbeats.sent(connection)
      } catch (error) {
        log.error({ err: error, requestId: connection.requestId }, 'stream message failed')
        if (connection.socket) socket.end(1011, 'unexpected error')
      }
    },

    drain(socket) {
      const connection = socket.getUserData()
      channel.laneOf(connection).delivery.drained(connection)
    },

    pong(socket) {
      socket.getUserData().answeredPing = true
    },

    close(socket, code) {
      const connection = socket.getUserData()
      opening.delete(connection)
      resumes.cancel(connection)
      channel.laneOf(connection).delivery.remove(connection)
      heartbeats.unwatch(connection)
      connection.socket = undefined
      gate.release(connection.budgetKey)
      channel.countConnections()
      log.debug({ requestId: connection.requestId, code }, 'stream connection closed')
    },
  })

  const pings = startHeartbeat({
    intervalMs: config.STREAM_PING_INTERVAL_MS,
    connections,
    onTerminate(connection) {
      metrics.streamHeartbeatTerminations.inc()
      log.debug({ requestId: connection.requestId }, 'stream connection terminated: no pong since the previous ping')
    },
  })

  return {
    get opening() {
      return opening.size
    },
    get heartbeatConnections() {
      return heartbeats.size
    },
    connections,
    async stop() {
      pings.stop()
      heartbeats.stop()
      const drained = await untilDrained([...connections()], config.STREAM_DRAIN_TIMEOUT_MS)
      const open = [...opening, ...connections()]
      for (const connection of open) connection.socket?.end(1001, 'going away')
      for (const connection of resumes.waitingConnections()) (connection as Partial<StreamConnection>).socket?.end(1001, 'going away')
      return { connections: open.length, drained }
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
