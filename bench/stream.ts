// Price stream, driven by the load test's native engine (loadtest/native-stream-load.ts) so the figures are
// the edge's, not the client's: delivered messages/s, tick-to-client latency, gaps, CPU and memory of the
// service's stream beside a bare uWebSockets.js publish-only server (bench/stream-baseline-uws-server.ts) in
// the same run. This script starts the servers and runs the engine's steps against each. The load client is
// the repository's epoll client (loadtest/native/stream-client.c), compiled with cc at bench time. The edge is pinned to CPU 0; the client, this process
// (the publisher) and nats-server to CPU 1. Every figure is printed beside the client's CPU share.
// With --compare <commit>, that commit's tree is built and measured beside this one, the trees alternating run by
// run, and the ratios of the medians are printed (this tree against the commit and against the bare server).
// With --formats full,compact the throughput scenario runs once per format (?format=compact: compact frames)
// against the same server, and every row published is stamped in a field of the row (so that a compact
// connection's static part holds), full rows included, so both formats carry the same rows. A format named with
// `+batch` (full+batch, compact+batch) asks for `batch=true` as well: the ticks the edge sends together in one frame.
// Usage: npm run bench:stream [-- --clients 1000 --rates 3500,5000 --runs 3 --seconds 6 --paused-runs 5
//        --workers 1,2 --no-baseline --compare <commit> --cpu-prof-dir DIR --resume-window S --formats full,compact
//        --scenarios throughput,latency,paused --bare-on-tick-stream]
// With --bare-on-tick-stream the bare server runs a second time, on a bus where its namespace's tick stream stores
// and republishes every tick as the venue's ingestor has it do: what numbering costs the bus, apart from the edge.
import { connect } from '@nats-io/transport-node'
import { parseCommandLine, progressReporter } from '../kit/command-line.ts'
import { PAIRS } from '../schemas/pairs.ts'
import { freePort, startNats } from '../test/support/servers.ts'
import { coreMeter, loadAverage } from '../loadtest/cpu-meter.ts'
import type { LoadResult } from '../loadtest/load-result.ts'
import { buildLoadClient } from '../loadtest/native-stream-client.ts'
import { NativeStreamSession } from '../loadtest/native-stream-load.ts'
import { pinRunning } from '../loadtest/pinning.ts'
import {
  listeningPids,
  totalCpuMs as serverCpuMs,
  totalRssMb as rssMb,
  totalSystemCpuMs as serverKernelMs,
} from '../loadtest/server-processes.ts'
import { startBaselineServer, startStreamService, type StreamServer } from './stream-servers.ts'
import { median, printTable, writeFiguresWithLoad } from './report.ts'
import { treeAtCommit } from './tree-at-commit.ts'

const command = parseCommandLine({
  usage: 'npm run bench:stream -- [options]',
  summary:
    "Price stream: delivered messages/s, tick-to-client latency, gaps, CPU and memory of the compiled edge's stream\n" +
    'beside a bare uWebSockets.js publish-only server, in one run, driven by the native load client (needs cc).\n' +
    'Scenarios: throughput, latency, paused clients.',
  options: {
    clients: { type: 'string', default: '1000', value: 'N', description: 'all-pairs connections (throughput, paused)' },
    rates: { type: 'string', default: '3500,5000', value: 'LIST', description: 'ticks/s offered in throughput, comma-separated' },
    runs: { type: 'string', default: '3', value: 'N', description: 'runs of throughput and latency' },
    seconds: { type: 'string', default: '6', value: 'S', description: 'seconds measured per step' },
    warmup: { type: 'string', default: '2', value: 'S', description: 'seconds of warm-up before each step' },
    'latency-clients': { type: 'string', default: '100', value: 'N', description: 'connections in the latency scenario' },
    'paused-runs': { type: 'string', default: '5', value: 'N', description: 'runs of the paused scenario (0 skips it)' },
    'paused-rate': { type: 'string', default: '3000', value: 'N', description: 'ticks/s in the paused scenario' },
    workers: { type: 'string', default: '1', value: 'LIST', description: 'edge workers (EDGE_WORKERS) to measure, comma-separated' },
    'no-baseline': { type: 'boolean', default: false, description: 'skip the bare uWebSockets.js server' },
    'bare-on-tick-stream': {
      type: 'boolean',
      default: false,
      description: 'also the bare server on a bus with the tick stream, as the ingestor makes it (throughput, latency)',
    },
    scenarios: {
      type: 'string',
      default: 'throughput,latency,paused',
      value: 'LIST',
      description: 'the scenarios to run, comma-separated',
    },
    compare: { type: 'string', value: 'COMMIT', description: "an earlier commit's tree to measure beside this one (throughput, latency)" },
    'cpu-prof-dir': {
      type: 'string',
      value: 'DIR',
      description: "write a CPU profile of each edge process here (node --cpu-prof): this tree's in this-tree/, --compare's in compared/",
    },
    'resume-window': {
      type: 'string',
      value: 'S',
      description:
        "the edges' STREAM_RESUME_WINDOW_SECONDS (the service's default, 300, without it): a short one has each edge's tick history turn over within a run",
    },
    formats: {
      type: 'string',
      default: 'full',
      value: 'LIST',
      description:
        'stream formats in throughput (full, compact, full+batch, compact+batch), comma-separated; with compact, every row is stamped in-row',
    },
  },
})
const args = command.values
const whole = { min: 1, integer: true }
const clients = command.number('clients', whole)
const rates = command.numbers('rates', whole)
const runs = command.number('runs', whole)
const measureMs = command.number('seconds', { min: 0.1 }) * 1000
const warmupMs = command.number('warmup', { min: 0 }) * 1000
const latencyClients = command.number('latency-clients', whole)
const pausedRuns = command.number('paused-runs', { min: 0, integer: true })
const pausedRate = command.number('paused-rate', whole)
const workerCounts = command.numbers('workers', whole)
const resumeWindow = args['resume-window'] === undefined ? undefined : command.number('resume-window', whole)
/** the settings both trees' edges get beside the bench's own */
const edgeEnv: Record<string, string> = resumeWindow === undefined ? {} : { STREAM_RESUME_WINDOW_SECONDS: String(resumeWindow) }
const SCENARIOS = ['throughput', 'latency', 'paused']
const scenarios = new Set(args.scenarios.split(','))
for (const scenario of scenarios)
  if (!SCENARIOS.includes(scenario)) command.refuse(`--scenarios: ${SCENARIOS.join(', ')}, not "${scenario}"`)
const FORMATS = ['full', 'compact', 'full+batch', 'compact+batch'] as const
type Format = (typeof FORMATS)[number]
const formats = args.formats.split(',') as Format[]
for (const format of formats) if (!FORMATS.includes(format)) command.refuse(`--formats: ${FORMATS.join(', ')}, not "${format}"`)
// compact connections need rows whose static part holds: then every format gets those rows
const rowsStamped = formats.some((format) => format.startsWith('compact')) ? 'in-row' : 'trailing'
const progress = progressReporter()
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

const clientBinary = buildLoadClient()
pinRunning('1', process.pid)
const nats = await startNats()
const publisherConnection = await connect({ servers: nats.url, name: 'stream-bench-publisher' })

// ---- servers under test

type Server = StreamServer
/** the service's node arguments when profiling: each tree's profiles in a folder of its own */
const profiling = (tree: string) => (args['cpu-prof-dir'] ? ['--cpu-prof', `--cpu-prof-dir=${args['cpu-prof-dir']}/${tree}`] : [])
const startService = async (workers: number) =>
  startStreamService({
    natsUrl: nats.url,
    workers,
    port: await freePort(),
    cpus: workers === 1 ? '0' : '0,1',
    env: edgeEnv,
    nodeArgs: profiling('this-tree'),
  })
const compared = args.compare ? treeAtCommit(args.compare) : undefined
const comparedName = compared && `commit ${compared.commit.slice(0, 8)}`
const startCompared = async () =>
  startStreamService({
    natsUrl: nats.url,
    workers: 1,
    port: await freePort(),
    cpus: '0',
    checkout: compared!.dir,
    name: comparedName,
    env: edgeEnv,
    nodeArgs: profiling('compared'),
  })
const startBaseline = async (tickStream = false) =>
  startBaselineServer({ natsUrl: nats.url, port: await freePort(), cpus: '0', tickStream })

// ---- one measured step of the engine; beside it the CPU and memory of the server and each core's busy share

type Row = Record<string, string | number>
const rows: Row[] = []

interface Reading {
  rate: number
  p99ms: number
  gaps: number
  /** the server's CPU-ms per million messages delivered: what a message costs it, whichever core was the limit */
  serverCpuMsPerMillion: number
}

async function step(server: Server, session: NativeStreamSession, label: Row, rate: number, pairCount?: number) {
  const pids = server.pids()
  progress(`${label.scenario}, run ${label.run}: ${server.name}, ${label.clients} clients at ${rate} ticks/s`)
  // nats-server shares CPU 1 with the load client: what it takes (a tick stream's store, its republish) the client lacks
  const natsPids = listeningPids(nats.port)
  let window = { serverCpuPercent: 0, serverKernelPercent: 0, natsCpuPercent: 0, busy: [] as number[] }
  const result: LoadResult = await session.run({
    ticksPerSecond: rate,
    warmupSeconds: warmupMs / 1000,
    durationSeconds: measureMs / 1000,
    pairCount,
    log: (line) => console.log(`  ${line}`),
    measured: () => {
      const [cpuBefore, kernelBefore, natsCpuBefore] = [serverCpuMs(pids), serverKernelMs(pids), serverCpuMs(natsPids)]
      const [cores, startedAt] = [coreMeter(), performance.now()]
      return () => {
        const elapsed = performance.now() - startedAt
        window = {
          serverCpuPercent: Math.round(((serverCpuMs(pids) - cpuBefore) / elapsed) * 100),
          serverKernelPercent: Math.round(((serverKernelMs(pids) - kernelBefore) / elapsed) * 100),
          natsCpuPercent: Math.round(((serverCpuMs(natsPids) - natsCpuBefore) / elapsed) * 100),
          busy: cores.stop(),
        }
      }
    },
  })
  const totals = result.totals as { deliveredPerSecond: number; gaps: number; publisherCpuPercent: number }
  const row: Row = {
    ...label,
    server: server.name,
    'offered ticks/s': rate,
    'delivered msg/s': totals.deliveredPerSecond,
    'p50 ms': result.latency.p50Ms,
    'p99 ms': result.latency.p99Ms,
    'max ms': result.latency.maxMs,
    gaps: totals.gaps,
    'server CPU %': window.serverCpuPercent,
    // of it in the kernel: the sockets' sends (with loopback's receive) are most of a stream server's work
    'server kernel %': window.serverKernelPercent,
    'server RSS MB': rssMb(pids),
    'client CPU %': result.loadClient.cpuPercentOfCores,
    'publisher CPU %': totals.publisherCpuPercent,
    'nats-server CPU %': window.natsCpuPercent,
    'CPU0/CPU1 busy %': `${Math.round(window.busy[0]! * 100)}/${Math.round((window.busy[1] ?? 0) * 100)}`,
  }
  rows.push(row)
  console.log(
    Object.entries(row)
      .map(([key, value]) => `${key}=${value}`)
      .join('  '),
  )
  await sleep(500)
  const reading: Reading = {
    rate: totals.deliveredPerSecond,
    p99ms: result.latency.p99Ms,
    gaps: totals.gaps,
    serverCpuMsPerMillion: totals.deliveredPerSecond > 0 ? (window.serverCpuPercent * 10 * 1e6) / totals.deliveredPerSecond : 0,
  }
  return { row, reading }
}

async function withServer<T>(start: () => Promise<Server>, work: (server: Server) => Promise<T>): Promise<T> {
  const server = await start()
  try {
    return await work(server)
  } finally {
    await server.stop()
  }
}

/** The engine's connections to `server`: one client process per group, on CPU 1. */
const openSession = (server: Server, groups: number[], format: Format = 'full') =>
  NativeStreamSession.open({
    target: `http://127.0.0.1:${server.port}`,
    clientBinary,
    groups,
    pairs: 'all',
    cpus: '1',
    nc: publisherConnection,
    namespace: server.namespace,
    format: format.startsWith('compact') ? 'compact' : 'full',
    ...(format.endsWith('+batch') && { query: 'batch=true' }),
    rows: rowsStamped,
  })

// ---- scenarios

const results: Record<string, unknown> = {}
const servers: Array<{ key: string; start: () => Promise<Server> }> = [
  ...workerCounts.map((workers) => ({ key: workers === 1 ? 'service' : `service-${workers}-workers`, start: () => startService(workers) })),
  ...(compared ? [{ key: 'compared', start: startCompared }] : []),
  ...(args['no-baseline'] ? [] : [{ key: 'baseline', start: () => startBaseline() }]),
  ...(args['bare-on-tick-stream'] ? [{ key: 'baseline-tick-stream', start: () => startBaseline(true) }] : []),
]
const SERVER_NAMES: Record<string, string> = { baseline: 'bare uWS', 'baseline-tick-stream': 'bare uWS, tick stream on the bus' }
const nameOf = (key: string) => (key === 'compared' ? comparedName! : SERVER_NAMES[key]!)
/**
 * The servers in run `run`'s order: rotated by one each run, so that no server always follows the same one and, with
 * three or more, none runs twice in a row (a machine's slow stretches can last tens of seconds).
 */
const inTurn = (run: number) => servers.map((_, index) => servers[(index + run - 1) % servers.length]!)

/** Target: >= 4M msgs/s at p99 <= 30 ms and no gaps to 1,000 all-pairs clients. */
async function throughput() {
  const figures: Record<string, Record<number, Reading[]>> = {}
  for (let run = 1; run <= runs; run++) {
    for (const { key, start } of inTurn(run)) {
      await withServer(start, async (server) => {
        // only this tree has compact frames (not the bare server, nor an earlier commit)
        for (const format of key === 'service' ? formats : ['full' as const]) {
          const session = await openSession(server, [clients], format)
          try {
            for (const rate of rates) {
              const scenario = formats.length > 1 ? `throughput, ${format}` : 'throughput'
              const { reading } = await step(server, session, { scenario, run, clients }, rate)
              ;((figures[format === 'full' ? key : `${key}-${format}`] ??= {})[rate] ??= []).push(reading)
            }
          } finally {
            await session.close()
          }
        }
      })
    }
  }
  results.throughput = Object.fromEntries(
    Object.entries(figures).map(([key, byRate]) => [
      key,
      Object.fromEntries(
        Object.entries(byRate).map(([rate, readings]) => [
          rate,
          {
            medianRate: median(readings.map((reading) => reading.rate)),
            medianP99Ms: median(readings.map((reading) => reading.p99ms)),
            medianServerCpuMsPerMillion: Math.round(median(readings.map((reading) => reading.serverCpuMsPerMillion))),
            gaps: readings.map((reading) => reading.gaps),
          },
        ]),
      ),
    ]),
  )
}

/** Target: tick-to-client p99 <= 2 ms at 100 clients, every pair ticking 10 times a second. */
async function latency() {
  const p99: Record<string, number[]> = {}
  for (let run = 1; run <= runs; run++) {
    for (const { key, start } of inTurn(run)) {
      await withServer(start, async (server) => {
        const session = await openSession(server, [latencyClients])
        try {
          const { reading } = await step(
            server,
            session,
            { scenario: `${PAIRS.length} pairs x 10/s`, run, clients: latencyClients },
            PAIRS.length * 10,
          )
          ;(p99[key] ??= []).push(reading.p99ms)
        } finally {
          await session.close()
        }
      })
    }
  }
  results.latency = Object.fromEntries(Object.entries(p99).map(([key, values]) => [key, { p99Ms: values, medianP99Ms: median(values) }]))
}

/**
 * Target: with 10% of the clients not reading (a client process stopped with SIGSTOP), the others' p99
 * stays within 20% of the same clients' p99 with everyone reading, in every run; the server holds at
 * most about 1 MB per paused client.
 */
async function paused() {
  const outcomes: Array<Record<string, number>> = []
  for (let run = 1; run <= pausedRuns; run++) {
    await withServer(
      () => startService(1),
      async (server) => {
        const stopped = Math.round(clients / 10)
        // group 0 reads throughout, group 1 is stopped after the first step
        const session = await openSession(server, [clients - stopped, stopped])
        try {
          const label = { scenario: 'paused', run, clients }
          const before = await step(server, session, { ...label, clients: `${clients}, all reading` }, pausedRate)
          const rssBefore = rssMb(server.pids())
          session.pause(1)
          const lagging = async () =>
            Number(/^venue_stream_lagging_connections (\d+)/m.exec(await (await fetch(server.metricsUrl!)).text())?.[1] ?? 0)
          for (let second = 0; second < 60 && (await lagging()) < stopped; second++) await session.publish(pausedRate, 1000)
          const during = await step(server, session, { ...label, clients: `${clients}, ${stopped} stopped` }, pausedRate)
          const buffered = Number(
            /^venue_stream_buffered_bytes (\d+)/m.exec(await (await fetch(server.metricsUrl!)).text())?.[1] ?? Number.NaN,
          )
          outcomes.push({
            run,
            laggingConnections: await lagging(),
            p99BeforeMs: before.reading.p99ms,
            p99DuringMs: during.reading.p99ms,
            p99Rise: Number((during.reading.p99ms / before.reading.p99ms - 1).toFixed(3)),
            bufferedBytesPerPausedClient: Math.round(buffered / stopped),
            rssGrowthPerPausedClientMb: Number(((rssMb(server.pids()) - rssBefore) / stopped).toFixed(3)),
          })
          console.log(JSON.stringify(outcomes.at(-1)))
        } finally {
          await session.close()
        }
      },
    )
  }
  const within = outcomes.filter((outcome) => outcome.p99Rise! <= 0.2).length
  results.paused = { rate: pausedRate, runs: outcomes, withinTwentyPercent: `${within} of ${outcomes.length}` }
}

/** This tree's medians against the compared commit's and the bare server's: delivered ratios, p99 differences. */
function comparisons() {
  const throughput = (results.throughput ?? {}) as Record<
    string,
    Record<string, { medianRate: number; medianP99Ms: number; medianServerCpuMsPerMillion: number }>
  >
  const latencies = (results.latency ?? {}) as Record<string, { medianP99Ms: number }>
  const lines: Row[] = []
  for (const key of ['compared', 'baseline', 'baseline-tick-stream']) {
    if (throughput.service && throughput[key])
      for (const rate of rates) {
        const [ours, theirs] = [throughput.service[rate]!, throughput[key][rate]!]
        lines.push({
          against: nameOf(key),
          scenario: `${clients} clients at ${rate} ticks/s`,
          'delivered ratio': Number((ours.medianRate / theirs.medianRate).toFixed(3)),
          'p99 difference ms': Number((ours.medianP99Ms - theirs.medianP99Ms).toFixed(2)),
          'server CPU per message ratio': Number((ours.medianServerCpuMsPerMillion / theirs.medianServerCpuMsPerMillion).toFixed(3)),
        })
      }
    if (latencies.service && latencies[key])
      lines.push({
        against: nameOf(key),
        scenario: `${latencyClients} clients at ${PAIRS.length * 10} ticks/s`,
        'delivered ratio': '',
        'p99 difference ms': Number((latencies.service.medianP99Ms - latencies[key].medianP99Ms).toFixed(2)),
        'server CPU per message ratio': '',
      })
  }
  // every other format of this tree against its full rows: delivered, and the edge's CPU per message
  for (const format of formats.filter((format) => format !== 'full')) {
    const byRate = throughput[`service-${format}`]
    if (!byRate || !throughput.service) continue
    for (const rate of rates) {
      const [other, full] = [byRate[rate]!, throughput.service[rate]!]
      lines.push({
        against: 'full rows, the same tree',
        scenario: `${clients} clients at ${rate} ticks/s, ${format}`,
        'delivered ratio': Number((other.medianRate / full.medianRate).toFixed(3)),
        'p99 difference ms': Number((other.medianP99Ms - full.medianP99Ms).toFixed(2)),
        'server CPU per message ratio': Number((other.medianServerCpuMsPerMillion / full.medianServerCpuMsPerMillion).toFixed(3)),
      })
    }
  }
  if (lines.length > 0) {
    console.log(`\nthis tree against the others (medians of ${runs} runs)`)
    printTable(lines)
  }
  return lines
}

const loadBefore = loadAverage()
console.log(
  `price stream bench: ${clients} clients at ${rates.join(', ')} ticks/s, ${runs} runs, ${measureMs / 1000} s after ${warmupMs / 1000} s warm-up; ` +
    `edge workers ${workerCounts.join(', ')}${compared ? `; beside ${comparedName}` : ''}; formats ${formats.join(', ')}; ` +
    `load average ${loadBefore}`,
)
try {
  if (scenarios.has('throughput')) await throughput()
  if (scenarios.has('latency')) await latency()
  if (scenarios.has('paused') && pausedRuns > 0) await paused()
  printTable(rows)
  results.comparisons = comparisons()
  console.log(JSON.stringify(results, null, 2))
  const figures = { rows, results, clients, rates, runs, measureMs, warmupMs, formats, compared: compared?.commit }
  writeFiguresWithLoad('stream', figures, loadBefore)
} finally {
  compared?.remove()
  await publisherConnection.close()
  await nats.dispose()
}
process.exit(0)
