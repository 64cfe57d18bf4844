import { connect } from '@nats-io/transport-node'
import type { OhlcResolution } from '../schemas/ohlc.ts'
import { PAIRS } from '../schemas/pairs.ts'
import { RESOLUTION_SECONDS } from '../services/candles/resolutions.ts'
import { estimateClockOffset } from './clock-offset.ts'
import { latencyHistogram, summarize } from './latency.ts'
import { cpuShare, latencyTotals, progressLine, type LoadResult, type SecondFigures } from './load-result.ts'
import { StreamClients } from './stream-clients.ts'
import { streamUrl, type StreamChannel } from './targets.ts'
import { addCounters, freshCounters, type LatencySource } from './stream-protocol.ts'
import { TickPublisher } from './tick-publisher.ts'

export interface StreamLoadOptions {
  /** the service's base URL (http, https, ws or wss) */
  target: string
  connections: number
  /** new connections per second while ramping up */
  rampPerSecond: number
  durationSeconds: number
  /** 'all', 'rand:N' (N random pairs per connection) or a list of symbols */
  pairs: string
  /** `prices` (default): the price stream; `candles`: the candle stream, of `resolution` */
  channel?: StreamChannel
  /** the candle stream's `resolution` (as POST /v1/ohlc takes it; `1D` for days) */
  resolution?: OhlcResolution
  workers: number
  /** local source addresses the connections are spread over */
  localAddresses: string[]
  /** the service's per-IP ceilings; ignored with `ownsService` */
  perIp: { connections: number; upgradesPerMinute: number }
  /** the tester owns the service (limits lifted): no per-IP planning */
  ownsService: boolean
  reconnect: boolean
  /** `ws` (default): WebSocket; `sse`: Server-Sent Events on the same path */
  transport?: 'ws' | 'sse'
  /** connections ask for cursors and every reopen resumes after the last one */
  resume?: boolean
  /** connections ask for a heartbeat frame after this many seconds of silence (`?heartbeat=`) */
  heartbeatSeconds?: number
  /** connections ask for this rate (`?rate=`; real_time when absent) */
  streamRate?: string
  /** connections ask for each window (real time: the ticks sent together) in one `batch` frame (`?batch=true`) */
  batch?: boolean
  /** every `everySeconds`, `share` % of the connections close and reopen at once: a reconnect storm */
  storm?: { everySeconds: number; share: number }
  /** publish the ticks on the service's bus (exact latency) instead of reading the service's feed */
  publish?: { natsUrl: string; namespace: string; ticksPerSecond: number }
  log: (line: string) => void
}

/** Why `pairs` is not a selection the engines take ('all', 'rand:N' or listed symbols, comma-separated); undefined when it is. */
export function pairSelectionProblem(pairs: string): string | undefined {
  if (pairs === 'all' || /^rand:[1-9]\d*$/.test(pairs)) return undefined
  const unknown = pairs.split(',').filter((symbol) => !PAIRS.some((pair) => pair.symbol === symbol))
  return unknown.length === 0 ? undefined : `--pairs is all, rand:N or listed pairs (BTC-USD,ETH-USD), not "${pairs}"`
}

/**
 * A reproducible pick of pairs for each connection: '' (all), ?pairs=<list>, or N random ones each. `listAll`:
 * every pair is listed (the candle stream has no unfiltered connection).
 */
export function streamQueries(connections: number, pairs: string, listAll = false): string[] {
  if (pairs === 'all' && listAll) return streamQueries(connections, PAIRS.map((pair) => pair.symbol).join(','))
  if (pairs === 'all') return Array.from({ length: connections }, () => '')
  const random = /^rand:(\d+)$/.exec(pairs)
  if (!random) return Array.from({ length: connections }, () => `?pairs=${pairs}`)
  const count = Math.min(Number(random[1]), PAIRS.length)
  let state = 7
  const next = () => (state = (state * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31
  return Array.from({ length: connections }, () => {
    const chosen = new Set<number>()
    while (chosen.size < count) chosen.add(Math.floor(next() * PAIRS.length))
    return `?pairs=${[...chosen].map((id) => PAIRS[id]!.symbol).join(',')}`
  })
}

/** The queries with the parameters every connection adds: `?resolution=` (candles), `?heartbeat=`, `?rate=` and `?batch=`. */
export function withOptIns(
  queries: string[],
  optIns: { resolution?: string; heartbeatSeconds?: number; streamRate?: string; batch?: boolean },
): string[] {
  const params = [
    ...(optIns.resolution === undefined ? [] : [`resolution=${optIns.resolution}`]),
    ...(optIns.heartbeatSeconds === undefined ? [] : [`heartbeat=${optIns.heartbeatSeconds}`]),
    ...(optIns.streamRate === undefined ? [] : [`rate=${optIns.streamRate}`]),
    ...(optIns.batch ? ['batch=true'] : []),
  ].join('&')
  return params === '' ? queries : queries.map((query) => (query === '' ? `?${params}` : `${query}&${params}`))
}

/** Plans the ramp within the per-IP ceilings; throws when the run cannot fit them. */
function plannedRamp(options: StreamLoadOptions): number {
  if (options.ownsService) return options.rampPerSecond
  const addresses = Math.max(1, options.localAddresses.length)
  const ceiling = addresses * options.perIp.connections
  if (options.connections > ceiling) {
    throw new Error(
      `${options.connections} connections exceed the service's ${options.perIp.connections} per IP over ${addresses} source address(es): ` +
        `spread them (--source-ips), or lift the limits on a service you own (--owns-service)`,
    )
  }
  return Math.min(options.rampPerSecond, (addresses * options.perIp.upgradesPerMinute) / 60)
}

/** At a fixed rate a seq jump is ticks folded into the row, not a loss. */
const folds = (streamRate: string | undefined) => streamRate !== undefined && streamRate !== 'real_time'

/** How long a run with storms waits after its last second for the connections of the last storm to be back. */
const STORM_SETTLE_MS = 10_000

export async function runStreamLoad(options: StreamLoadOptions): Promise<LoadResult> {
  const ramp = plannedRamp(options)
  const notes: string[] = []
  if (ramp < options.rampPerSecond) notes.push(`ramp held to ${ramp.toFixed(2)} connections/s by the per-IP upgrade budget`)
  const nc = options.publish ? await connect({ servers: options.publish.natsUrl }) : undefined
  const publisher = nc && options.publish ? new TickPublisher(nc, options.publish.namespace) : undefined
  let latency: LatencySource
  let latencyMeaning: string
  if (publisher) {
    await publisher.warm()
    latency = { kind: 'published', publishedAt: publisher.publishedAt }
    latencyMeaning = 'tick-to-client: from this process publishing the tick on the bus to a client reading it (exact)'
  } else {
    const clock = await estimateClockOffset(options.target)
    latency = { kind: 'row-timestamp', clockOffsetMs: clock.offsetMs }
    latencyMeaning = `row age at the client: our clock plus the service's estimated offset (${clock.offsetMs} ms ± ${clock.uncertaintyMs} ms) minus the row's timestampSeconds; whole seconds, so up to 1 s above the true tick-to-client latency`
    notes.push(`clock offset ${clock.offsetMs} ms ± ${clock.uncertaintyMs} ms (GET /v1/status, shortest of 7 round trips)`)
  }
  const candles = options.channel === 'candles'
  const resolution = options.resolution ?? '1'
  if (candles) {
    const clock = latency.kind === 'published' ? "this machine's clock" : "our clock plus the service's estimated offset"
    latencyMeaning = `closed-candle delay: from the end of a candle's period to a client reading its closed frame (${clock}); forming candles are counted, not timed`
  }
  const clients = new StreamClients({
    url: streamUrl(options.target, options.channel),
    queries: withOptIns(streamQueries(options.connections, options.pairs, candles), { ...options, ...(candles && { resolution }) }),
    latency,
    workers: options.workers,
    localAddresses: options.localAddresses,
    reconnect: options.reconnect,
    transport: options.transport ?? 'ws',
    resume: options.resume ?? false,
    folds: folds(options.streamRate),
    ...(candles && { candlePeriodMs: RESOLUTION_SECONDS[resolution] * 1000 }),
  })
  const storming = (second: number) => options.storm !== undefined && second % options.storm.everySeconds === 0
  const cpu = cpuShare(options.workers + 1)
  const total = latencyHistogram()
  const series: SecondFigures[] = []
  const { open: _reading, ...totals } = freshCounters()
  const startedAt = new Date()
  const started = performance.now()
  const publishing = publisher?.run(options.publish!.ticksPerSecond, options.durationSeconds * 1000)
  try {
    for (let second = 1; second <= options.durationSeconds; second++) {
      await clients.rampTo(Math.min(options.connections, Math.ceil(ramp * second)))
      await new Promise((resolve) => setTimeout(resolve, started + second * 1000 - performance.now()))
      const window = await clients.report(true)
      if (storming(second) && second < options.durationSeconds)
        await clients.drop(Math.round((options.connections * options.storm!.share) / 100))
      total.add(window.latency)
      const { counters } = window
      addCounters(totals, counters)
      const refused = Object.values(counters.refused).reduce((sum, count) => sum + count, 0)
      const figures: SecondFigures = {
        second,
        ...(options.publish && options.pairs === 'all' && !candles && { offeredPerSecond: options.publish.ticksPerSecond * counters.open }),
        deliveredPerSecond: counters.ticks,
        errors: refused + counters.unexplained,
        latency: summarize(window.latency),
        extra: {
          connections: counters.open,
          gaps: counters.gaps,
          dropped: counters.dropped,
          reconnects: counters.reconnects,
          snapshots: counters.snapshots,
          recovered: counters.recovered,
          notRecovered: counters.notRecovered,
          bytes: counters.bytes,
          ...(options.heartbeatSeconds !== undefined && { heartbeats: counters.heartbeats }),
          ...(candles && { closed: counters.closedCandles }),
          ...(folds(options.streamRate) && { folded: counters.folded }),
        },
      }
      series.push(figures)
      options.log(progressLine(figures, cpu.sinceLast(), candles ? 'candles' : 'msgs'))
    }
    if (options.storm) {
      // the last storm's connections are counted back, however busy the machine: their reopening is in the totals
      const waitedFrom = performance.now()
      await clients.settle(STORM_SETTLE_MS)
      const tail = await clients.report(true)
      total.add(tail.latency)
      addCounters(totals, tail.counters)
      notes.push(
        `after the last second, ${Math.round(performance.now() - waitedFrom)} ms waiting for the last storm's connections to be back (at most ${STORM_SETTLE_MS} ms), counted in the totals`,
      )
    }
  } finally {
    publisher?.stop()
    await publishing
    await clients.close()
    await nc?.close()
  }
  const seconds = (performance.now() - started) / 1000
  return {
    mode: 'stream',
    target: options.target,
    startedAt: startedAt.toISOString(),
    durationSeconds: Math.round(seconds * 10) / 10,
    options: { ...options, log: undefined, rampPerSecond: ramp },
    latencyMeaning,
    series,
    latency: latencyTotals(total),
    totals: { ...totals, deliveredPerSecond: Math.round(totals.ticks / seconds) },
    loadClient: { workers: options.workers, cores: options.workers + 1, cpuPercentOfCores: cpu.overall() },
    notes,
  }
}
