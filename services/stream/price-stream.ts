// The price channel: the numbered ticks from the bus, the window resumes replay from, what each rate's lane has
// published, fan-out and the one resume path, shared by the channel's two transports: WebSocket
// (price-sockets.ts) and Server-Sent Events (price-event-streams.ts).
import { throttledWarning } from '../../kit/throttled-warning.ts'
import type { Logger } from '../../kit/logger.ts'
import type { Metrics } from '../../kit/metrics.ts'
import type { PriceBus } from '../../bus/price-bus.ts'
import { pairBySymbol } from '../../schemas/pairs.ts'
import type { StreamConfig } from './config.ts'
import type { HttpServer, Route } from '../http/http-server.ts'
import type { OriginAllowlist } from '../http/origin-allowlist.ts'
import type { RateLimits } from '../http/rate-limits.ts'
import type { Materializer } from '../snapshot/materializer.ts'
import { compressesTicks } from './compression.ts'
import { connectionReplay } from './connection-replay.ts'
import { formatCursor } from './cursor.ts'
import { TOPIC_QUEUE_FRAMES } from './delivery.ts'
import { createFanOut, type Arrival, type FanOut } from './fan-out.ts'
import type { PriceChannel } from './price-channel.ts'
import { priceEventStreams } from './price-event-streams.ts'
import { priceSockets } from './price-sockets.ts'
import { PublishedTicks } from './published-ticks.ts'
import { StreamLanes } from './rate-lanes.ts'
import { ResumeDecisions } from './resume-decisions.ts'
import { TickHistory } from './tick-history.ts'
import type { StreamAdmission } from './stream-admission.ts'
import type { RejectionReason } from './upgrade-gate.ts'

export const STREAM_PATH = '/v1/prices/stream'

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

/** `/v1/prices/stream` (spec 4.3, 6), WebSocket or Server-Sent Events: the snapshot, then ticks for the connection's filter. */
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
    onAborted: (connection) => events.aborted(connection),
    onWindowEnd: () => resumes.progressed(),
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
    lanes.start()
    fanOut = createFanOut({
      published,
      sliceMs: config.STREAM_FANOUT_SLICE_MS,
      framesPerWrite: TOPIC_QUEUE_FRAMES,
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
      sentTogether() {
        lanes.sentTogether()
      },
    })
  })
  const refused = (reason: RejectionReason | 'admission_rate', ip: string) => {
    metrics.streamRejectedUpgrades.labels(reason).inc()
    log.debug({ reason, ip }, 'stream upgrade refused')
  }
  const countConnections = () => {
    let open = sockets.opening
    for (const lane of lanes.all()) {
      const size = lane.delivery.size + lane.sse.size
      metrics.streamRateConnections.labels(lane.rate).set(size)
      open += size
    }
    metrics.streamConnections.set(open)
    metrics.streamHeartbeatConnections.set(sockets.heartbeatConnections + events.heartbeatConnections)
  }
  const channel: PriceChannel = {
    config,
    lanes,
    laneOf: (connection) => lanes.of(connection.rate),
    resumes,
    replay: connectionReplay(history, cursorOf, malformedRow),
    cursorOf,
    compressTicks,
    admission: options.admission,
    refused,
    countConnections,
  }
  const sockets = priceSockets({ server, path: STREAM_PATH, channel, logger: log, metrics })
  const events = priceEventStreams({
    path: STREAM_PATH,
    channel,
    rateLimits: options.rateLimits,
    allowedOrigins: options.allowedOrigins,
    metrics,
  })

  const sampleBuffers = setInterval(
    () => metrics.streamBufferedBytes.set(lanes.all().reduce((bytes, lane) => bytes + lane.delivery.bufferedBytes(), 0)),
    1000,
  )
  sampleBuffers.unref()

  return {
    routes: [events.route],
    ready,
    async stop() {
      options.admission.gate.close()
      follower.stop()
      fanOut?.stop()
      lanes.stop()
      events.stop()
      clearInterval(sampleBuffers)
      const { connections, drained } = await sockets.stop()
      const eventStreams = lanes.all().reduce((ended, lane) => ended + lane.sse.endAll(), 0)
      log.info({ connections, eventStreams, drained }, 'price stream closed')
    },
  }
}
