// The servers the stream benches measure, started the same way for each bench: the service's edge as the
// image runs it (compiled, EDGE_WORKERS processes on one port, limits lifted), and the bare uWebSockets.js
// baseline (stream-baseline-uws-server.ts). Both read ticks from the bench's nats-server in a namespace.
import { jetstreamManager } from '@nats-io/jetstream'
import { connect } from '@nats-io/transport-node'
import { spawn } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { fileURLToPath } from 'node:url'
import { openTickStream } from '../bus/nats-tick-log.ts'
import { DEFAULT_RESUME_WINDOW_SECONDS } from '../bus/price-bus.ts'
import { busNames } from '../bus/subjects.ts'
import { startServiceProcess } from '../test/support/service-process.ts'
import { freePort } from '../test/support/servers.ts'
import { waitFor } from '../test/support/wait.ts'
import { pinned } from '../loadtest/pinning.ts'
import { listeningPids } from '../loadtest/server-processes.ts'
import { compiledService, IMAGE_ENV } from './deployed-edge.ts'

export interface StreamServer {
  name: string
  port: number
  namespace: string
  pids(): number[]
  metricsUrl?: string
  stop(): Promise<void>
}

const newNamespace = () => `bench${randomUUID().slice(0, 8)}`

/**
 * Deletes what a server made in its namespace on the bench's nats-server: the tick stream and the latest-row bucket.
 * Left there, a run's ticks would expire from the server 300 s later, in the middle of a later run, whose
 * nats-server (on the load client's core) would then be measured doing it.
 */
export async function clearNamespace(natsUrl: string, namespace: string): Promise<void> {
  const names = busNames(namespace)
  const nc = await connect({ servers: natsUrl, name: 'stream-bench-cleanup' })
  try {
    const jsm = await jetstreamManager(nc)
    // a server that never made one (the bare server on a bus without the tick stream) is refused: nothing to delete
    for (const stream of [names.tickStream, `KV_${names.latestPricesBucket}`]) await jsm.streams.delete(stream).catch(() => false)
  } finally {
    await nc.close()
  }
}
/** the compiled entry of each tree measured ('' is this one's, or BENCH_SERVICE_CHECKOUT's) */
const entries = new Map<string, ReturnType<typeof compiledService>>()
const entryOf = (checkout = '') => entries.get(checkout) ?? entries.set(checkout, compiledService(checkout || undefined)).get(checkout)!

/** The edge with `workers` processes on one port, pinned to `cpus`; `env` adds to the bench's settings. */
export async function startStreamService(options: {
  natsUrl: string
  workers: number
  port: number
  cpus: string
  namespace?: string
  env?: Record<string, string>
  /** node's own flags, e.g. --cpu-prof (which NODE_OPTIONS does not take) */
  nodeArgs?: string[]
  /** another checkout of the project to run instead of this tree (bench/tree-at-commit.ts makes one) */
  checkout?: string
  /** the name the figures give it */
  name?: string
}): Promise<StreamServer> {
  const { port, workers } = options
  // a server given its namespace shares another's, which clears it
  const ownsNamespace = options.namespace === undefined
  const namespace = options.namespace ?? newNamespace()
  const [command, ...launcher] = pinned(options.cpus, [process.execPath, ...(options.nodeArgs ?? [])])
  const entry = entryOf(options.checkout)
  // the primary's /metrics (edge worker n has its own on OPS_PORT + n)
  const opsPort = await freePort()
  const service = startServiceProcess(
    ['edge'],
    {
      NATS_URL: options.natsUrl,
      BUS_NAMESPACE: namespace,
      HOST: '127.0.0.1',
      PORT: String(port),
      OPS_PORT: String(opsPort),
      EDGE_WORKERS: String(workers),
      LOG_LEVEL: 'warn',
      ONBOARDING_ENABLED: 'false',
      RATE_LIMITS_ENABLED: 'false',
      STREAM_MAX_CONNECTIONS: '100000',
      STREAM_MAX_CONNECTIONS_PER_IP: '100000',
      // the benches open their connections at once: the admission rate is measured by the storm only
      STREAM_UPGRADES_PER_SECOND: '1000000',
      STREAM_UPGRADE_BURST: '1000000',
      STREAM_ALLOWED_ORIGINS: '*',
      ...IMAGE_ENV,
      ...options.env,
    },
    { command: command!, args: launcher },
    entry,
  )
  // each probe runs `ss -p`, which reads every process's file table: polled gently, not to slow the start it waits for
  await waitFor(() => listeningPids(port).length === workers, {
    what: `${workers} edge process(es) listening`,
    timeoutMs: 120_000,
    intervalMs: 250,
  })
  return {
    name: options.name ?? (workers === 1 ? 'service' : `service, ${workers} workers`),
    port,
    namespace,
    pids: () => listeningPids(port),
    metricsUrl: `http://127.0.0.1:${opsPort}/metrics`,
    async stop() {
      await service.stop()
      if (ownsNamespace) await clearNamespace(options.natsUrl, namespace)
    },
  }
}

/**
 * The bare uWebSockets.js server on `cpus`; with `window` (`<ms>:per-pair` or `<ms>:one-frame`) it plays a fixed rate.
 * With `tickStream`, its namespace's tick stream is made first, as the venue's ingestor makes it at start: the bus then
 * stores every tick the server reads, and only the numbered ticks' delivery is the edge's own.
 */
export async function startBaselineServer(options: {
  natsUrl: string
  port: number
  cpus: string
  namespace?: string
  window?: string
  tickStream?: boolean
}): Promise<StreamServer> {
  const ownsNamespace = options.namespace === undefined
  const namespace = options.namespace ?? newNamespace()
  if (options.tickStream) {
    const nc = await connect({ servers: options.natsUrl, name: 'stream-bench-tick-stream' })
    await openTickStream(nc, busNames(namespace), { windowSeconds: DEFAULT_RESUME_WINDOW_SECONDS, replicas: 1 })
    await nc.close()
  }
  const script = fileURLToPath(new URL('./stream-baseline-uws-server.ts', import.meta.url))
  const [command, ...rest] = pinned(options.cpus, [
    process.execPath,
    '--import',
    'tsx',
    script,
    options.natsUrl,
    namespace,
    String(options.port),
    ...(options.window === undefined ? [] : [options.window]),
  ])
  const child = spawn(command!, rest, { stdio: ['ignore', 'pipe', 'inherit'] })
  await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()))
  return {
    name:
      options.window !== undefined
        ? `bare uWS, window ${options.window}`
        : options.tickStream
          ? 'bare uWS, tick stream on the bus'
          : 'bare uWS (publish only)',
    port: options.port,
    namespace,
    pids: () => [child.pid!],
    async stop() {
      const exited = new Promise((resolve) => child.once('exit', resolve))
      child.kill()
      await exited
      if (ownsNamespace) await clearNamespace(options.natsUrl, namespace)
    },
  }
}
