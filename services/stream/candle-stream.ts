import type { Logger } from '../../kit/logger.ts'
import type { Metrics } from '../../kit/metrics.ts'
import { throttledWarning } from '../../kit/throttled-warning.ts'
import type { PriceBus } from '../../bus/price-bus.ts'
import type { CandleStore } from '../candles/candle-store.ts'
import { LiveCandles } from '../candles/live-candles.ts'
import type { HttpServer, Route } from '../http/http-server.ts'
import type { OriginAllowlist } from '../http/origin-allowlist.ts'
import type { RateLimits } from '../http/rate-limits.ts'
import type { MarketClock } from '../market-hours/market-clock.ts'
import { CandleDelivery, type CandleEventStream, type CandleSocket } from './candle-delivery.ts'
import { candleFrame, candleSnapshotFrame } from './candle-frames.ts'
import { parseCandleQuery } from './candle-query.ts'
import { streamSocketSettings } from './socket-settings.ts'
import type { StreamConfig } from './config.ts'
import { asksForEvents, openEventStream, UPGRADE_REQUIRED, type EventStreamChecks } from './event-stream-route.ts'
import { IdleHeartbeats } from './idle-heartbeat.ts'
import { decideUpgrade, upgradeBudgetRefusal, type StreamAdmission } from './stream-admission.ts'
import type { RejectionReason } from './upgrade-gate.ts'

export const CANDLE_STREAM_PATH = '/v1/candles/stream'

/** Candle frames go out this long after each whole second: a tick stamped just before a period's end has arrived by then. */
const TURN_OFFSET_MS = 250
/** the candle stream reads no client message; a longer one closes the socket */
const MAX_RECEIVED_MESSAGE_BYTES = 4 * 1024
/** seconds without anything from the client (uWS pings it, and a pong counts) before uWS closes the socket */
const IDLE_TIMEOUT_SECONDS = 120

export interface CandleStreamOptions {
  /** the upgrade passes its request pipeline (origin allowlist, the streamUpgrades budget) */
  server: HttpServer
  /** every tick, folded into candles as the candle writer folds them */
  bus: PriceBus
  /** the candles written so far: the forming candles at start, and each closing period's */
  store: CandleStore
  /** resolves once every tick the candle writer received is in the store */
  flushed(): Promise<void>
  /** no forming candle goes out while a pair's market is closed */
  marketClock: MarketClock
  /** ms since the epoch: when periods end */
  now: () => number
  /** the connection ceilings and admission rate the price stream shares */
  admission: StreamAdmission
  rateLimits: RateLimits
  allowedOrigins: OriginAllowlist
  config: StreamConfig
  logger: Logger
  metrics: Metrics
}

export interface CandleStream {
  /** the event stream, and 426 for any other GET of the path */
  routes: Route[]
  /** resolves once the forming candles have been read from the store: listen after it */
  ready: Promise<void>
  /** refuses new connections, closes every socket with 1001 and ends every event stream */
  stop(): void
}

/**
 * `/v1/candles/stream?pairs=…&resolution=…` (WebSocket, or Server-Sent Events): a snapshot of each pair's last
 * closed and forming candle, then once a second the candles that closed and the forming ones that changed.
 */
export function startCandleStream(options: CandleStreamOptions): CandleStream {
  const { server, config, metrics, admission } = options
  const { gate, upgradeRate } = admission
  const log = options.logger.child({ module: 'candle-stream' })
  const warn = throttledWarning(log, 'candle store not read in time; a closed candle went out as this edge folded it')
  const live = new LiveCandles({
    store: options.store,
    flushed: options.flushed,
    marketClock: options.marketClock,
    now: options.now,
    onStoreFailure: (error) => warn('store', { err: error }),
  })
  const unsubscribe = options.bus.subscribeTicks((pair, row) => live.fold(pair, row))
  const ready = options
    .flushed()
    .then(() => live.seed())
    .catch((error: unknown) => log.error({ err: error }, 'forming candles not read from the store; they start from the ticks to come'))

  const countConnections = () => metrics.candleStreamConnections.set(delivery.size)
  const delivery = new CandleDelivery({
    app: server.app,
    slowClientBytes: config.STREAM_SLOW_CLIENT_BYTES,
    metrics,
    onAborted(eventStream) {
      heartbeats.unwatch(eventStream)
      gate.release(eventStream.budgetKey)
      countConnections()
    },
  })
  // `?heartbeat=`: one sweep over the clients of both transports that asked, none per frame
  const heartbeats = new IdleHeartbeats<CandleSocket | CandleEventStream>({
    activity: (client) => delivery.activity(client.subscription),
    send: (client, time) => delivery.heartbeat(client, time),
  })
  /** its snapshot is out and its candles started: heartbeats too, if it asked */
  const started = (client: CandleSocket | CandleEventStream) => {
    const { heartbeatMs } = client.subscription
    if (heartbeatMs !== undefined) heartbeats.watch(client, heartbeatMs)
    countConnections()
  }

  // one timer for the whole channel, whatever the number of connections
  let timer: NodeJS.Timeout | undefined
  const scheduleTurn = () => {
    timer = setTimeout(() => void turn(), 1000 - (Date.now() % 1000) + TURN_OFFSET_MS)
    timer.unref()
  }
  const turn = async () => {
    try {
      const candles = await live.turn()
      delivery.publish(
        candles.map((candle) => ({ pairId: candle.pairId, resolution: candle.resolution, encode: () => candleFrame(candle) })),
      )
    } catch (error) {
      log.error({ err: error }, 'candle turn failed')
    }
    if (timer) scheduleTurn()
  }
  scheduleTurn()

  const refused = (reason: RejectionReason | 'admission_rate', ip: string) => {
    metrics.candleStreamRejectedUpgrades.labels(reason).inc()
    log.debug({ reason, ip }, 'candle stream refused')
  }
  const admit = (budgetKey: string, query: string) => gate.admitParsed(budgetKey, 'the candle stream', () => parseCandleQuery(query))

  server.addWebSocket<CandleSocket>(
    {
      path: CANDLE_STREAM_PATH,
      budget: 'streamUpgrades',
      budgetRefusal: (_budget, decision) => upgradeBudgetRefusal(decision, false),
      onRefused: (reason, ip) => refused(reason === 'origin' ? 'origin' : 'upgrade_rate', ip),
      admit: ({ requestId, clientIp, budgetKey, query }) =>
        decideUpgrade(
          admission,
          clientIp,
          () => admit(budgetKey, query),
          refused,
          (subscription) => ({
            requestId,
            budgetKey,
            subscription,
            lagging: false,
            lagBaseline: 0,
            socket: undefined,
          }),
        ),
      abandon: (connection) => gate.release(connection.budgetKey),
    },
    {
      ...streamSocketSettings(config, MAX_RECEIVED_MESSAGE_BYTES),
      idleTimeout: IDLE_TIMEOUT_SECONDS,
      sendPingsAutomatically: true,

      open(socket) {
        const connection = socket.getUserData()
        connection.socket = socket
        // the snapshot just after the open callback, where the socket is corked (see price-stream.ts)
        setImmediate(() => {
          if (!connection.socket) return countConnections()
          delivery.addSocket(connection, candleSnapshotFrame(connection.subscription, live))
          started(connection)
        })
      },
      drain(socket) {
        delivery.drained(socket.getUserData())
      },
      close(socket) {
        const connection = socket.getUserData()
        connection.socket = undefined
        delivery.removeSocket(connection)
        heartbeats.unwatch(connection)
        gate.release(connection.budgetKey)
        countConnections()
      },
    },
  )

  const checks: EventStreamChecks = {
    gate,
    upgradeRate,
    rateLimits: options.rateLimits,
    allowedOrigins: options.allowedOrigins,
    budgetRefusal: (decision) => upgradeBudgetRefusal(decision, true),
    refused,
    metrics,
  }
  const eventStream: Route = {
    method: 'GET',
    path: CANDLE_STREAM_PATH,
    handle(context) {
      if (!asksForEvents(context)) throw UPGRADE_REQUIRED()
      const query = context.query.toString()
      return openEventStream(
        checks,
        context,
        { stream: 'the candle stream', admit: (budgetKey) => admit(budgetKey, query) },
        (res, subscription, budgetKey) => {
          started(
            delivery.addEventStream(
              res,
              { requestId: context.requestId, budgetKey, subscription },
              candleSnapshotFrame(subscription, live),
            ),
          )
        },
      )
    },
  }

  return {
    routes: [eventStream],
    ready,
    stop() {
      gate.close()
      clearTimeout(timer)
      timer = undefined
      unsubscribe()
      heartbeats.stop()
      const ended = delivery.endAll()
      log.info({ connections: ended }, 'candle stream closed')
    },
  }
}
