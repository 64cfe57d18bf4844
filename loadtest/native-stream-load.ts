// The stream mode's native engine (`loadtest stream --client native`): the repository's epoll client in C
// (native/stream-client.c) holds the connections, one process per group pinned to the CPUs given, so that a figure is the service's and
// not a Node client's; this process publishes the ticks on the service's bus stamped with their publish
// time, and the client takes each tick's latency from the stamp (exact, on this machine only). A session
// keeps its connections across steps (rates), and a group can be paused (SIGSTOP) to play clients that
// stop reading.
import type { NatsConnection } from '@nats-io/transport-node'
import { setTimeout as sleep } from 'node:timers/promises'
import { processCpuMs } from './cpu-meter.ts'
import type { LatencySummary } from './latency.ts'
import { cpuShare, progressLine, type LoadResult, type MeasuredWindow, type SecondFigures } from './load-result.ts'
import { LoadClient, StampedTickPublisher, type ClientReport, type StampedRows } from './native-stream-client.ts'
import { totalCpuMs, totalRssMb } from './server-processes.ts'

export interface NativeStreamOptions {
  /** the service's base URL, on this machine (the native client connects to 127.0.0.1) */
  target: string
  /** the compiled client (buildLoadClient) */
  clientBinary: string
  /** connections per client process: [900, 100] runs two, of which the second can be paused */
  groups: number[]
  /** 'all', 'rand:N' or a list of symbols */
  pairs: string
  /** with rand:N, the share (%) of connections that take every pair instead */
  allPairsShare?: number
  /** parameters every connection adds to its query, e.g. `rate=fixed_rate@200ms` */
  query?: string
  /** loopback source addresses each group's connections are spread over (default 127.0.0.1 only) */
  sources?: string[]
  /** CPUs the client processes run on (taskset -c), e.g. '1' */
  cpus?: string
  /** a connection to the service's bus, and its BUS_NAMESPACE, where this session is the only publisher */
  nc: NatsConnection
  namespace: string
  /** the service's processes, when on this machine: their CPU and memory join the figures */
  serverPids?: number[]
  /** the connections ask for compact frames (default full) */
  format?: 'full' | 'compact'
  /** how the published rows carry their stamp (default trailing; compact frames need in-row) */
  rows?: StampedRows
  /** the connections' fixed-rate window: latency is then from the end of the window a row was stamped in */
  windowMs?: number
}

export interface NativeStreamStep {
  /** ticks per second round-robin over the pairs; ignored when `slotMs` is given */
  ticksPerSecond: number
  /** the real feed's rhythm instead: every pair once per slot of this many ms (Pyth: 400) */
  slotMs?: number
  /** seconds of publishing before the measured window (latency and counts start afresh after it) */
  warmupSeconds: number
  durationSeconds: number
  /** ticks go round-robin over the first `pairCount` pairs (default: all) */
  pairCount?: number
  log: (line: string) => void
  measured?: MeasuredWindow
}

/** A process may hold 20,000 open files here: client processes hold at most this many connections each. */
export const CONNECTIONS_PER_CLIENT_PROCESS = 19_000

/** `total` connections split as evenly as can be over client processes of at most `perProcess` each. */
export function clientGroups(total: number, perProcess = CONNECTIONS_PER_CLIENT_PROCESS): number[] {
  const processes = Math.max(1, Math.ceil(total / perProcess))
  return Array.from({ length: processes }, (_, index) => Math.floor(total / processes) + (index < total % processes ? 1 : 0))
}

/** Loopback source addresses 127.0.0.2 onwards: one per 15,000 connections (a port range holds ~28,000), at least 2. */
export const loopbackSources = (connections: number): string[] =>
  Array.from({ length: Math.max(2, Math.ceil(connections / 15_000)) }, (_, index) => `127.0.0.${index + 2}`)

/** The service's port, when `target` is on this machine. */
function loopbackPort(target: string): number {
  const url = new URL(target)
  if (!['127.0.0.1', 'localhost'].includes(url.hostname)) {
    throw new Error(`the native client connects to 127.0.0.1 only: ${target} is not on this machine`)
  }
  return Number(url.port || (url.protocol === 'https:' || url.protocol === 'wss:' ? 443 : 80))
}

/** The client reports p50, p99, p99.9 and the maximum of its window. */
const latencyOf = (report: ClientReport): LatencySummary => ({
  count: report.msgs,
  p50Ms: report.p50ms,
  p99Ms: report.p99ms,
  p999Ms: report.p999ms,
  maxMs: report.maxms,
})
type Counted = 'msgs' | 'gaps' | 'seqGaps' | 'failed' | 'refused' | 'closes' | 'conns' | 'pairsHeld' | 'rate'
const sum = (reports: ClientReport[], key: Counted) => reports.reduce((total, report) => total + report[key], 0)

/** Ticks a second the connections should receive: every pair they hold, at the step's rhythm. */
const expectedPerSecond = (step: NativeStreamStep, pairsHeld: number) =>
  step.slotMs === undefined ? undefined : Math.round((pairsHeld * 1000) / step.slotMs)

export class NativeStreamSession {
  private readonly paused = new Set<number>()

  private constructor(
    private readonly options: NativeStreamOptions,
    private readonly clients: LoadClient[],
    private readonly publisher: StampedTickPublisher,
  ) {}

  /** Publishes a row per pair (so snapshots carry every row), then opens every group's connections. */
  static async open(options: NativeStreamOptions): Promise<NativeStreamSession> {
    const port = loopbackPort(options.target)
    const publisher = new StampedTickPublisher(options.nc, options.namespace, options.rows)
    await publisher.warm()
    const clients = options.groups.map(
      (count, group) =>
        new LoadClient({
          binary: options.clientBinary,
          ports: [port],
          count,
          pairs: options.pairs,
          allPairsShare: options.allPairsShare,
          query: options.query,
          sources: options.sources,
          seed: group + 1,
          cpus: options.cpus,
          format: options.format,
          windowMs: options.windowMs,
        }),
    )
    try {
      await Promise.all(clients.map((client) => client.connected()))
    } catch (error) {
      await Promise.all(clients.map((client) => client.close()))
      throw error
    }
    return new NativeStreamSession(options, clients, publisher)
  }

  /** Stops a group reading (SIGSTOP): its sockets fill up on the service's side; it no longer reports. */
  pause(group: number): void {
    this.clients[group]!.pause()
    this.paused.add(group)
  }

  /** Publishes at `ticksPerSecond` for `ms` without measuring (e.g. until the service notices paused readers). */
  publish(ticksPerSecond: number, ms: number): Promise<void> {
    return this.publisher.run(ticksPerSecond, ms)
  }

  /** One step: warm-up, then the measured window with a progress line every second. Latency is the first reading group's. */
  async run(step: NativeStreamStep): Promise<LoadResult> {
    const reading = this.clients.filter((_, group) => !this.paused.has(group))
    const connections = this.options.groups.filter((_, group) => !this.paused.has(group)).reduce((total, count) => total + count, 0)
    const publishMs = (step.warmupSeconds + step.durationSeconds) * 1000 + 500
    const publishing =
      step.slotMs === undefined
        ? this.publisher.run(step.ticksPerSecond, publishMs, step.pairCount)
        : this.publisher.runSlots(step.slotMs, publishMs)
    await sleep(step.warmupSeconds * 1000)
    // the window opens: the clients count ticks, gaps and latency afresh
    await Promise.all(reading.map((client) => client.reset()))
    const [startedAt, started] = [new Date(), performance.now()]
    const closeWindow = step.measured?.()
    const clientCpu = cpuShare(1, () => reading.reduce((total, client) => total + processCpuMs(client.pid), 0))
    const publisherCpu = cpuShare(1)
    const serverPids = this.options.serverPids ?? []
    const serverCpu = cpuShare(1, () => totalCpuMs(serverPids))
    const series: SecondFigures[] = []
    const errorsOf = (reports: ClientReport[]) => sum(reports, 'failed') + sum(reports, 'refused') + sum(reports, 'closes')
    // failed connections and closes count from connecting: each second shows its own
    let reports = await Promise.all(reading.map((client) => client.report()))
    let [msgsBefore, gapsBefore, errorsBefore] = [0, 0, errorsOf(reports)]
    for (let second = 1; second <= step.durationSeconds; second++) {
      await sleep(started + second * 1000 - performance.now())
      reports = await Promise.all(reading.map((client) => client.report()))
      const offeredPerSecond =
        expectedPerSecond(step, sum(reports, 'pairsHeld')) ?? (this.options.pairs === 'all' ? step.ticksPerSecond * connections : undefined)
      const figures: SecondFigures = {
        second,
        ...(offeredPerSecond !== undefined && { offeredPerSecond }),
        deliveredPerSecond: sum(reports, 'msgs') - msgsBefore,
        errors: errorsOf(reports) - errorsBefore,
        latency: latencyOf(reports[0]!),
        extra: {
          connections: sum(reports, 'conns'),
          gaps: sum(reports, 'gaps') + sum(reports, 'seqGaps') - gapsBefore,
          ...(serverPids.length > 0 && { 'server CPU %': serverCpu.sinceLast(), 'server RSS MB': totalRssMb(serverPids) }),
        },
      }
      ;[msgsBefore, gapsBefore, errorsBefore] = [sum(reports, 'msgs'), sum(reports, 'gaps') + sum(reports, 'seqGaps'), errorsOf(reports)]
      series.push(figures)
      step.log(progressLine(figures, clientCpu.sinceLast(), 'msgs'))
    }
    closeWindow?.()
    const elapsedSeconds = (performance.now() - started) / 1000
    const [clientPercent, publisherPercent, serverPercent] = [clientCpu.overall(), publisherCpu.overall(), serverCpu.overall()]
    await publishing
    const latency = latencyOf(reports[0]!)
    const expected = expectedPerSecond(step, sum(reports, 'pairsHeld'))
    return {
      mode: 'stream',
      target: this.options.target,
      startedAt: startedAt.toISOString(),
      durationSeconds: Math.round(elapsedSeconds * 10) / 10,
      options: { ...this.options, nc: undefined, client: 'native', step: { ...step, log: undefined, measured: undefined } },
      latencyMeaning:
        'tick-to-client: from this process publishing the tick on the bus to the native client reading it (exact); each second shows the percentiles so far in the measured window',
      series,
      latency: {
        ...latency,
        distribution: [
          { percentile: 50, ms: latency.p50Ms },
          { percentile: 99, ms: latency.p99Ms },
          { percentile: 99.9, ms: latency.p999Ms },
          { percentile: 100, ms: latency.maxMs },
        ],
      },
      totals: {
        connections,
        ticks: sum(reports, 'msgs'),
        // the clients' own count over their window
        deliveredPerSecond: Math.round(sum(reports, 'rate')),
        ...(expected !== undefined && {
          expectedPerSecond: expected,
          deliveredShareOfExpected: Math.round((sum(reports, 'rate') / expected) * 1000) / 1000,
        }),
        // announced by the server in gap frames, and found missing from a pair's seq sequence
        gaps: sum(reports, 'gaps'),
        seqGaps: sum(reports, 'seqGaps'),
        // since connecting
        failedConnections: sum(reports, 'failed'),
        refusedUpgrades: sum(reports, 'refused'),
        closes: sum(reports, 'closes'),
        publisherCpuPercent: publisherPercent,
        ...(serverPids.length > 0 && {
          serverProcesses: serverPids.length,
          serverCpuPercentOfOneCore: serverPercent,
          serverRssMb: totalRssMb(serverPids),
        }),
      },
      loadClient: { workers: reading.length, kind: 'native client process(es)', cores: 1, cpuPercentOfCores: clientPercent },
      notes: [
        `${reading.length} native client process(es)${this.options.cpus === undefined ? '' : ` on CPU ${this.options.cpus}`}; their CPU is shown as a share of one core`,
        ...(this.paused.size > 0 ? [`${this.paused.size} paused group(s) not reading and not counted`] : []),
      ],
    }
  }

  async close(): Promise<void> {
    await Promise.all(this.clients.map((client) => client.close()))
  }
}

/** `loadtest stream --client native`: one group, one step, and the connections closed. */
export async function runNativeStreamLoad(options: NativeStreamOptions, step: Omit<NativeStreamStep, 'measured'>): Promise<LoadResult> {
  const session = await NativeStreamSession.open(options)
  try {
    return await session.run(step)
  } finally {
    await session.close()
  }
}
