// Price stream: delivered messages/s, tick-to-client latency, drops and gaps, memory per connection and
// server CPU of the service's stream (uWebSockets.js) beside the same fan-out on the `ws` package.
// The server under test is pinned to CPU 0. This process (load generator and client workers) and the
// nats-server it starts are pinned to CPU 1; the table shows this process's CPU share so a saturated
// load client is visible.
// Usage: npx tsx bench/stream.ts [--clients 100,1000,5000] [--rates 150,500,1500,5000] [--seconds 3]
//        [--paused-rate 750] [--no-baseline]
import { connect } from '@nats-io/transport-node'
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { summarize } from '../loadtest/latency.ts'
import { StreamClients } from '../loadtest/stream-clients.ts'
import { streamQueries } from '../loadtest/stream-load.ts'
import { TickPublisher } from '../loadtest/tick-publisher.ts'
import { PAIRS } from '../schemas/pairs.ts'
import { freePort, startNats } from '../test/support/servers.ts'
import { startServiceProcess } from '../test/support/service-process.ts'
import { median, printTable, writeResult } from './report.ts'

const { values: args } = parseArgs({
  options: {
    clients: { type: 'string', default: '100,1000,5000' },
    rates: { type: 'string', default: '150,500,1500,5000' },
    seconds: { type: 'string', default: '3' },
    warmup: { type: 'string', default: '1' },
    workers: { type: 'string', default: '2' },
    'paused-rate': { type: 'string', default: '750' },
    'no-baseline': { type: 'boolean', default: false },
  },
})
const clientCounts = args.clients.split(',').map(Number)
const rates = args.rates.split(',').map(Number)
const measureMs = Number(args.seconds) * 1000
const warmupMs = Number(args.warmup) * 1000
const workerCount = Number(args.workers)
const FILTERED_PAIRS = 8
const PAUSED_SHARE = 0.1
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

const hasTaskset = !spawnSync('taskset', ['--version']).error
if (hasTaskset) spawnSync('taskset', ['-a', '-p', '-c', '1', String(process.pid)])
const onCpu0 = (command: string[]) => (hasTaskset ? ['taskset', '-c', '0', ...command] : command)

const nats = await startNats()
const natsConnection = await connect({ servers: nats.url })

// ---- what is measured: the server process and this one

const clockTicksMs = 1000 / 100
function processCpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
  return (Number(fields[11]) + Number(fields[12])) * clockTicksMs
}
const rssBytes = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) * 1024
/** The median of a few RSS readings a moment apart: one reading can land just before or after a GC. */
async function steadyRss(pid: number): Promise<number> {
  const readings: number[] = []
  for (let reading = 0; reading < 7; reading++) {
    readings.push(rssBytes(pid))
    await sleep(150)
  }
  return median(readings)
}
const ownCpuMs = () => {
  const usage = process.cpuUsage()
  return (usage.user + usage.system) / 1000
}

interface ServerUnderTest {
  name: 'service (uWS)' | 'baseline (ws)'
  pid: number
  url: string
  /** the service's Prometheus text; the baseline has none */
  metricsUrl?: string
  stop(): Promise<void>
}

async function startService(namespace: string): Promise<ServerUnderTest> {
  const port = await freePort()
  const [command, ...launcherArgs] = onCpu0([process.execPath])
  const service = startServiceProcess(
    ['edge'],
    {
      NATS_URL: nats.url,
      BUS_NAMESPACE: namespace,
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'warn',
      ONBOARDING_ENABLED: 'false',
      RATE_LIMITS_ENABLED: 'false',
      STREAM_MAX_CONNECTIONS: '100000',
      STREAM_MAX_CONNECTIONS_PER_IP: '100000',
    },
    { command: command!, args: launcherArgs },
  )
  await waitForHealthy(`http://127.0.0.1:${port}/healthz`)
  return {
    name: 'service (uWS)',
    pid: service.child.pid!,
    url: `ws://127.0.0.1:${port}/v1/prices/stream`,
    metricsUrl: `http://127.0.0.1:${port}/metrics`,
    stop: async () => void (await service.stop()),
  }
}

async function startBaseline(namespace: string): Promise<ServerUnderTest> {
  const port = await freePort()
  const script = new URL('./stream-baseline-ws-server.ts', import.meta.url).pathname
  const [command, ...rest] = onCpu0([process.execPath, '--import', 'tsx', script, nats.url, namespace, String(port)])
  const child: ChildProcess = spawn(command!, rest, { stdio: ['ignore', 'pipe', 'inherit'] })
  await new Promise((resolve) => child.stdout!.once('data', resolve))
  return {
    name: 'baseline (ws)',
    pid: child.pid!,
    url: `ws://127.0.0.1:${port}/v1/prices/stream`,
    async stop() {
      const exited = new Promise((resolve) => child.once('exit', resolve))
      child.kill()
      await exited
    },
  }
}

async function waitForHealthy(url: string) {
  for (let attempt = 0; attempt < 400; attempt++) {
    if ((await fetch(url).catch(() => undefined))?.status === 200) return
    await sleep(50)
  }
  throw new Error(`${url} did not answer`)
}

// ---- the load: ticks published on the bus and clients in worker threads, by the load-test engine

interface WindowFigures {
  ticks: number
  gaps: number
  dropped: number
  unexplained: number
  closed: number
  p50Ms: number
  p99Ms: number
  maxMs: number
}

/** The bench's view of the engine's stream clients: shares of its connections, windows of figures. */
class LoadClients {
  private readonly clients: StreamClients

  constructor(
    url: string,
    private readonly queries: string[],
    publishedAt: SharedArrayBuffer,
  ) {
    this.clients = new StreamClients({ url, queries, latency: { kind: 'published', publishedAt }, workers: workerCount })
  }

  /** Opens connections until `share` of them are open. */
  async connect(share = 1): Promise<void> {
    await this.clients.connect(Math.round(this.queries.length * share))
  }

  /** Starts a measuring window. */
  async window(): Promise<void> {
    await this.clients.report(true)
  }

  async report(): Promise<WindowFigures> {
    const { counters, latency } = await this.clients.report(true)
    const { p50Ms, p99Ms, maxMs } = summarize(latency)
    const closed = Object.values(counters.closes).reduce((sum, count) => sum + count, 0)
    return {
      ticks: counters.ticks,
      gaps: counters.gaps,
      dropped: counters.dropped,
      unexplained: counters.unexplained,
      closed,
      p50Ms,
      p99Ms,
      maxMs,
    }
  }

  /** Stops reading on `share` of the connections. */
  async pause(share: number): Promise<void> {
    await this.clients.pause(Math.round(this.queries.length * share))
  }

  async resume(): Promise<void> {
    await this.clients.resume()
  }

  async close(): Promise<void> {
    await this.clients.close()
  }

  /** Waits until no tick has arrived for a moment (bounded), so a backlog does not leak into the next step. */
  async quiesce(): Promise<void> {
    for (let attempt = 0; attempt < 20; attempt++) {
      await this.window()
      await sleep(250)
      if ((await this.report()).ticks === 0) return
    }
  }
}

// ---- steps

type Row = Record<string, string | number>
const rows: Row[] = []
const scenarios: Record<string, unknown> = {}
const EVERY_PAIR_ID = PAIRS.map((pair) => pair.id)

async function measureStep(
  server: ServerUnderTest,
  load: LoadClients,
  generator: TickPublisher,
  step: { clients: number; filter: string; rate: number; pairIds?: readonly number[] },
) {
  const publishing = generator.run(step.rate, warmupMs + measureMs, step.pairIds ?? EVERY_PAIR_ID)
  await sleep(warmupMs)
  await load.window()
  const [startedAt, serverCpu, ownCpu] = [performance.now(), processCpuMs(server.pid), ownCpuMs()]
  await sleep(measureMs)
  const figures = await load.report()
  const elapsed = performance.now() - startedAt
  const row: Row = {
    server: server.name,
    clients: step.clients,
    pairs: step.filter,
    'offered ticks/s': step.rate,
    'delivered msg/s': Math.round((figures.ticks / elapsed) * 1000),
    'p50 ms': figures.p50Ms,
    'p99 ms': figures.p99Ms,
    'max ms': figures.maxMs,
    dropped: figures.dropped,
    gaps: figures.gaps,
    'server CPU %': Math.round(((processCpuMs(server.pid) - serverCpu) / elapsed) * 100),
    'server RSS MB': Math.round(rssBytes(server.pid) / 2 ** 20),
    'load CPU %': Math.round(((ownCpuMs() - ownCpu) / elapsed) * 100),
  }
  if (figures.unexplained > 0) row.note = `${figures.unexplained} ticks lost without a gap`
  await publishing
  await load.quiesce()
  return { row, figures }
}

async function runInstance(kind: 'service' | 'baseline', clients: number, filtered: boolean) {
  const namespace = `bench${randomUUID().slice(0, 8)}`
  const server = kind === 'service' ? await startService(namespace) : await startBaseline(namespace)
  const generator = new TickPublisher(natsConnection, namespace)
  await generator.warm()
  await sleep(300)
  const queries = streamQueries(clients, filtered ? `rand:${FILTERED_PAIRS}` : 'all')
  const load = new LoadClients(server.url, queries, generator.publishedAt)
  const filter = filtered ? `${FILTERED_PAIRS} each` : 'all'
  try {
    // memory per idle connection: the slope between half and all of them open, past start-up's transients
    await load.connect(0.5)
    await sleep(1000)
    const rssHalf = await steadyRss(server.pid)
    await load.connect(1)
    await sleep(1000)
    if (!filtered) {
      const perConnection = ((await steadyRss(server.pid)) - rssHalf) / (clients / 2)
      scenarios[`idle RSS per connection: ${server.name}, ${clients} clients`] = Math.round(perConnection)
      console.log(`${server.name}: ${clients} idle connections, ${(perConnection / 1024).toFixed(1)} KB RSS each`)
    }
    // before the rate steps, so that no backlog of a saturated step can leak into it
    if (!filtered && clients === 100) await latencyScenario(server, load, generator)
    for (const rate of rates) {
      const { row } = await measureStep(server, load, generator, { clients, filter, rate })
      rows.push(row)
      console.log(Object.values(row).join('  '))
    }
    if (!filtered && clients === 1000 && kind === 'service') await pausedScenario(server, load, generator, queries.length)
  } finally {
    await load.close()
    await server.stop()
  }
}

/** Target: tick-to-client p99 <= 5 ms at 100 clients, 80 pairs, 10 ticks/s per pair. */
async function latencyScenario(server: ServerUnderTest, load: LoadClients, generator: TickPublisher) {
  const pairIds = EVERY_PAIR_ID.slice(0, 80)
  const { row, figures } = await measureStep(server, load, generator, { clients: 100, filter: 'all (80 ticking)', rate: 80 * 10, pairIds })
  rows.push(row)
  scenarios[`100 clients, 80 pairs x 10 ticks/s: ${server.name}`] = { p50Ms: figures.p50Ms, p99Ms: figures.p99Ms }
}

/** Target: with 10% of clients not reading, the others' p99 rises <= 20% and memory grows <= 1 MB per paused client. */
async function pausedScenario(server: ServerUnderTest, load: LoadClients, generator: TickPublisher, clients: number) {
  const rate = Number(args['paused-rate'])
  const before = await measureStep(server, load, generator, { clients, filter: 'all', rate })
  rows.push(before.row)
  const rssBefore = await steadyRss(server.pid)
  const paused = Math.round(clients * PAUSED_SHARE)
  await load.pause(PAUSED_SHARE)
  // the paused sockets' kernel buffers fill first, then 1 MB each on the server, where ticks start to drop
  const gauge = async (name: string) =>
    Number(new RegExp(`^${name} (\\d+)`, 'm').exec(await (await fetch(server.metricsUrl!)).text())?.[1] ?? 0)
  const lagging = () => gauge('venue_stream_lagging_connections')
  for (let second = 0; second < 90 && (await lagging()) < paused; second++) await generator.run(rate, 1000, EVERY_PAIR_ID)
  const during = await measureStep(server, load, generator, { clients, filter: `all, ${paused} not reading`, rate })
  rows.push(during.row)
  const laggingAtEnd = await lagging()
  const queuedPerPaused = (await gauge('venue_stream_buffered_bytes')) / paused
  const growthPerPaused = ((await steadyRss(server.pid)) - rssBefore) / paused
  await load.resume()
  await load.quiesce()
  scenarios['10% paused readers (service)'] = {
    rate,
    paused,
    laggingConnections: laggingAtEnd,
    p99BeforeMs: before.figures.p99Ms,
    p99DuringMs: during.figures.p99Ms,
    p99Rise: Number((during.figures.p99Ms / before.figures.p99Ms - 1).toFixed(3)),
    queuedBytesPerPausedClient: Math.round(queuedPerPaused),
    rssGrowthPerPausedClientBytes: Math.round(growthPerPaused),
  }
}

console.log(
  `price stream bench: clients ${clientCounts.join(', ')}; offered ticks/s ${rates.join(', ')}; ${measureMs / 1000} s per step after ${warmupMs / 1000} s warm-up`,
)
try {
  for (const kind of args['no-baseline'] ? ['service' as const] : ['service' as const, 'baseline' as const]) {
    for (const clients of clientCounts) {
      for (const filtered of [false, true]) await runInstance(kind, clients, filtered)
    }
  }
  printTable(rows)
  console.log(JSON.stringify(scenarios, null, 2))
  const file = writeResult('stream', {
    rows,
    scenarios,
    clientCounts,
    rates,
    measureMs,
    warmupMs,
    loadAverage: readFileSync('/proc/loadavg', 'utf8').trim(),
  })
  console.log(`written ${file}`)
} finally {
  await natsConnection.close()
  await nats.dispose()
}
process.exit(0)
