// Price stream, driven by a native load client so the figures are the edge's, not the client's: delivered
// messages/s, tick-to-client latency, gaps, CPU and memory of the service's stream beside a bare
// uWebSockets.js publish-only server (bench/stream-baseline-uws-server.ts) in the same run.
// The load client is the shared epoll client (../shared/tools/stream-load/client.c beside this repository,
// or STREAM_LOAD_DIR), compiled here with cc at bench time. The edge is pinned to CPU 0; the client, this
// process (the publisher) and nats-server to CPU 1. Every figure is printed beside the client's CPU share.
// Usage: npm run bench:stream [-- --clients 1000 --rates 3500,5000 --runs 3 --seconds 6 --paused-runs 5
//        --workers 1,2 --no-baseline]
import { connect } from '@nats-io/transport-node'
import { execFileSync, spawn, spawnSync } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { PAIRS } from '../schemas/pairs.ts'
import { freePort, startNats } from '../test/support/servers.ts'
import { startServiceProcess, type ServiceProcess } from '../test/support/service-process.ts'
import { coreMeter, loadAverage, processCpuMs } from '../loadtest/cpu-meter.ts'
import { buildLoadClient, LoadClient, StampedTickPublisher, type ClientReport } from '../loadtest/native-stream-client.ts'
import { pinned } from '../loadtest/pinning.ts'
import { median, printTable, writeResult } from './report.ts'

const { values: args } = parseArgs({
  options: {
    clients: { type: 'string', default: '1000' },
    rates: { type: 'string', default: '3500,5000' },
    runs: { type: 'string', default: '3' },
    seconds: { type: 'string', default: '6' },
    warmup: { type: 'string', default: '2' },
    'latency-clients': { type: 'string', default: '100' },
    'paused-runs': { type: 'string', default: '5' },
    'paused-rate': { type: 'string', default: '3000' },
    workers: { type: 'string', default: '1' },
    'no-baseline': { type: 'boolean', default: false },
  },
})
const clients = Number(args.clients)
const rates = args.rates.split(',').map(Number)
const runs = Number(args.runs)
const measureMs = Number(args.seconds) * 1000
const warmupMs = Number(args.warmup) * 1000
const latencyClients = Number(args['latency-clients'])
const pausedRuns = Number(args['paused-runs'])
const pausedRate = Number(args['paused-rate'])
const workerCounts = args.workers.split(',').map(Number)
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

const clientBinary = buildLoadClient()
if (pinned('1', []).length > 0) spawnSync('taskset', ['-a', '-p', '-c', '1', String(process.pid)])
const nats = await startNats()
const publisherConnection = await connect({ servers: nats.url, name: 'stream-bench-publisher' })

// ---- servers under test

interface Server {
  name: string
  port: number
  namespace: string
  pids(): number[]
  metricsUrl?: string
  stop(): Promise<void>
}

const listeningPids = (port: number) =>
  [...execFileSync('ss', ['-ltnpH', `( sport = :${port} )`], { encoding: 'utf8' }).matchAll(/pid=(\d+)/g)].map((match) => Number(match[1]))

async function until(probe: () => Promise<boolean> | boolean, what: string, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await sleep(100)
  }
}

async function startService(workers: number): Promise<Server> {
  const [namespace, port] = [`bench${randomUUID().slice(0, 8)}`, await freePort()]
  const [command, ...launcher] = pinned(workers === 1 ? '0' : '0,1', [process.execPath])
  const service: ServiceProcess = startServiceProcess(
    ['edge'],
    {
      NATS_URL: nats.url,
      BUS_NAMESPACE: namespace,
      HOST: '127.0.0.1',
      PORT: String(port),
      EDGE_WORKERS: String(workers),
      LOG_LEVEL: 'warn',
      ONBOARDING_ENABLED: 'false',
      RATE_LIMITS_ENABLED: 'false',
      STREAM_MAX_CONNECTIONS: '100000',
      STREAM_MAX_CONNECTIONS_PER_IP: '100000',
      STREAM_ALLOWED_ORIGINS: '*',
    },
    { command: command!, args: launcher },
  )
  await until(() => listeningPids(port).length === workers, `${workers} edge process(es) listening`)
  return {
    name: workers === 1 ? 'service' : `service, ${workers} workers`,
    port,
    namespace,
    pids: () => listeningPids(port),
    metricsUrl: `http://127.0.0.1:${port}/metrics`,
    stop: async () => void (await service.stop()),
  }
}

async function startBaseline(): Promise<Server> {
  const [namespace, port] = [`bench${randomUUID().slice(0, 8)}`, await freePort()]
  const script = fileURLToPath(new URL('./stream-baseline-uws-server.ts', import.meta.url))
  const [command, ...rest] = pinned('0', [process.execPath, '--import', 'tsx', script, nats.url, namespace, String(port)])
  const child = spawn(command!, rest, { stdio: ['ignore', 'pipe', 'inherit'] })
  await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()))
  return {
    name: 'bare uWS (publish only)',
    port,
    namespace,
    pids: () => [child.pid!],
    async stop() {
      const exited = new Promise((resolve) => child.once('exit', resolve))
      child.kill()
      await exited
    },
  }
}

const rssMb = (pids: number[]) =>
  Math.round(pids.reduce((sum, pid) => sum + Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]), 0) / 1024)

// ---- one measured step: warm-up, reset, measure, report; CPU of the edge, the client and this process

type Row = Record<string, string | number>
const rows: Row[] = []

async function step(server: Server, load: LoadClient[], publisher: StampedTickPublisher, label: Row, rate: number, pairCount?: number) {
  const publishing = publisher.run(rate, warmupMs + measureMs + 500, pairCount)
  await sleep(warmupMs)
  await Promise.all(load.map((client) => client.reset()))
  const pids = server.pids()
  const [serverCpu, clientCpu, ownCpu, cores, startedAt] = [
    pids.reduce((sum, pid) => sum + processCpuMs(pid), 0),
    load.reduce((sum, client) => sum + processCpuMs(client.pid), 0),
    process.cpuUsage(),
    coreMeter(),
    performance.now(),
  ]
  await sleep(measureMs)
  const reports = await Promise.all(load.map((client) => client.report()))
  const elapsed = performance.now() - startedAt
  const share = (cpuMs: number) => Math.round((cpuMs / elapsed) * 100)
  const own = process.cpuUsage(ownCpu)
  const busy = cores.stop()
  await publishing
  const reading = reports[0]!
  const row: Row = {
    ...label,
    server: server.name,
    'offered ticks/s': rate,
    'delivered msg/s': Math.round(reports.reduce((sum, report) => sum + report.rate, 0)),
    'p50 ms': reading.p50ms,
    'p99 ms': reading.p99ms,
    'max ms': reading.maxms,
    gaps: reports.reduce((sum, report) => sum + report.gaps, 0),
    'server CPU %': share(pids.reduce((sum, pid) => sum + processCpuMs(pid), 0) - serverCpu),
    'server RSS MB': rssMb(pids),
    'client CPU %': share(load.reduce((sum, client) => sum + processCpuMs(client.pid), 0) - clientCpu),
    'publisher CPU %': share((own.user + own.system) / 1000),
    'CPU0/CPU1 busy %': `${Math.round(busy[0]! * 100)}/${Math.round((busy[1] ?? 0) * 100)}`,
  }
  rows.push(row)
  console.log(
    Object.entries(row)
      .map(([key, value]) => `${key}=${value}`)
      .join('  '),
  )
  await sleep(500)
  return { row, reading }
}

async function withServer<T>(
  start: () => Promise<Server>,
  work: (server: Server, publisher: StampedTickPublisher) => Promise<T>,
): Promise<T> {
  const server = await start()
  try {
    const publisher = new StampedTickPublisher(publisherConnection, server.namespace)
    await publisher.warm()
    await sleep(300)
    return await work(server, publisher)
  } finally {
    await server.stop()
  }
}

async function connectClients(port: number, counts: number[], pairs = 'all'): Promise<LoadClient[]> {
  const load = counts.map((count) => new LoadClient({ binary: clientBinary, port, count, pairs, cpus: '1' }))
  await Promise.all(load.map((client) => client.connected()))
  return load
}

// ---- scenarios

const results: Record<string, unknown> = {}
const servers: Array<{ key: string; start: () => Promise<Server> }> = [
  ...workerCounts.map((workers) => ({ key: workers === 1 ? 'service' : `service-${workers}-workers`, start: () => startService(workers) })),
  ...(args['no-baseline'] ? [] : [{ key: 'baseline', start: startBaseline }]),
]

/** Target: >= 4M msgs/s at p99 <= 30 ms and no gaps to 1,000 all-pairs clients. */
async function throughput() {
  const figures: Record<string, Record<number, ClientReport[]>> = {}
  for (let run = 1; run <= runs; run++) {
    for (const { key, start } of servers) {
      await withServer(start, async (server, publisher) => {
        const load = await connectClients(server.port, [clients])
        try {
          for (const rate of rates) {
            const { reading } = await step(server, load, publisher, { scenario: 'throughput', run, clients }, rate)
            ;((figures[key] ??= {})[rate] ??= []).push(reading)
          }
        } finally {
          await Promise.all(load.map((client) => client.close()))
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
    for (const { key, start } of servers) {
      await withServer(start, async (server, publisher) => {
        const load = await connectClients(server.port, [latencyClients])
        try {
          const { reading } = await step(
            server,
            load,
            publisher,
            { scenario: `${PAIRS.length} pairs x 10/s`, run, clients: latencyClients },
            PAIRS.length * 10,
          )
          ;(p99[key] ??= []).push(reading.p99ms)
        } finally {
          await Promise.all(load.map((client) => client.close()))
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
      async (server, publisher) => {
        const stopped = Math.round(clients / 10)
        const [readers, sleepers] = await connectClients(server.port, [clients - stopped, stopped])
        try {
          const label = { scenario: 'paused', run, clients }
          const before = await step(server, [readers!, sleepers!], publisher, { ...label, clients: `${clients}, all reading` }, pausedRate)
          const rssBefore = rssMb(server.pids())
          sleepers!.pause()
          const lagging = async () =>
            Number(/^venue_stream_lagging_connections (\d+)/m.exec(await (await fetch(server.metricsUrl!)).text())?.[1] ?? 0)
          for (let second = 0; second < 60 && (await lagging()) < stopped; second++) await publisher.run(pausedRate, 1000)
          const during = await step(server, [readers!], publisher, { ...label, clients: `${clients}, ${stopped} stopped` }, pausedRate)
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
          await Promise.all([readers!.close(), sleepers!.close()])
        }
      },
    )
  }
  const within = outcomes.filter((outcome) => outcome.p99Rise! <= 0.2).length
  results.paused = { rate: pausedRate, runs: outcomes, withinTwentyPercent: `${within} of ${outcomes.length}` }
}

const loadBefore = loadAverage()
console.log(
  `price stream bench: ${clients} clients at ${rates.join(', ')} ticks/s, ${runs} runs, ${measureMs / 1000} s after ${warmupMs / 1000} s warm-up; ` +
    `edge workers ${workerCounts.join(', ')}; load average ${loadBefore}`,
)
try {
  await throughput()
  await latency()
  if (pausedRuns > 0) await paused()
  printTable(rows)
  console.log(JSON.stringify(results, null, 2))
  const loadAfter = loadAverage()
  console.log(`load average before ${loadBefore}, after ${loadAfter}`)
  console.log(
    `written ${writeResult('stream', { rows, results, clients, rates, runs, measureMs, warmupMs, loadAverage: { before: loadBefore, after: loadAfter } })}`,
  )
} finally {
  await publisherConnection.close()
  await nats.dispose()
}
process.exit(0)
