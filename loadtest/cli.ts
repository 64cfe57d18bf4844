// The load test: `npm run loadtest -- <stream|rest|onboard> --target <url> [options]` (or `venue-loadtest`),
// against any deployment. Prints a progress line every second, then writes <out>.json and <out>.html.
import { connect } from '@nats-io/transport-node'
import { mkdirSync, writeFileSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { dirname, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { renderHtmlReport } from './html-report.ts'
import type { LoadResult } from './load-result.ts'
import { readDeploymentFile } from '../services/onboarding/deployment.ts'
import { derivedPartners, runOnboardLoad } from './onboard-load.ts'
import { buildLoadClient } from './native-stream-client.ts'
import { clientGroups, loopbackSources, runNativeStreamLoad } from './native-stream-load.ts'
import { runRestLoad } from './rest-load.ts'
import { listeningPids } from './server-processes.ts'
import { runStreamLoad } from './stream-load.ts'
import { runClosedLoopRest } from './wrk-load.ts'

const USAGE = `usage: loadtest <stream|rest|onboard> --target <url> [options]

common:
  --target URL             the service's base URL (http://, https://; ws:// and wss:// for stream)
  --duration S             seconds of load (default 30)
  --workers N              client worker threads (default: cores - 1, at least 1)
  --source-ips N           spread connections over 127.0.0.1 ... 127.0.0.N (loopback targets only)
  --owns-service           the service's limits are lifted (RATE_LIMITS_ENABLED=false): do not plan around them
  --out PATH               report path without extension (default loadtest-results/<mode>-<time>)

stream:
  --connections N          connections to hold (default 100)
  --ramp N                 new connections per second (default 50; held within 60 upgrades/min per IP)
  --pairs all|rand:N|A,B   what each connection receives (default all)
  --reconnect              reopen closed or refused connections
  --per-ip-connections N   the service's connection ceiling per IP (default 20)
  --publish NATS_URL       publish the ticks on the service's bus (exact latency), with
  --namespace NS             its BUS_NAMESPACE, and
  --tick-rate N              ticks per second over all pairs (default 500)
  --client node|native     node: worker-thread clients (default); native: the repository's epoll client in C
                             (loadtest/native, built with cc), processes of up to --per-process connections
                             on --client-cpus, every connection opened at once (needs --publish and
                             --owns-service, and a service on this machine admitting Origin http://bench,
                             e.g. STREAM_ALLOWED_ORIGINS=*); the service's CPU and RSS are reported
  --warmup S               native: seconds of publishing before the measured window (default 1)
  --per-process N          native: connections per client process (default 19000, under a 20,000 file limit)
  --profile realistic      native, the production regime: --connections (default 1000) each taking
                             --pairs rand:8 (default), --all-pairs-share of them every pair, ticks at the
                             real feed's rhythm (every pair once per --slot-ms), from 127.0.0.2 onwards
                             (one address per 15,000 connections, at least 2; or --source-ips)
  --all-pairs-share PCT    with --pairs rand:N, the share of connections taking every pair (default 10)
  --slot-ms MS             the feed's slot: every pair ticks once per slot (default 400, Pyth's)

rest:
  --rate N                 requests per second, open loop (default 100)
  --route 'GET /v1/prices' a route (repeatable; default GET /v1/prices and GET /v1/status)
  --connections N          sockets per worker (default 64); with --closed-loop, wrk's connections
  --closed-loop            the ceiling: wrk (Debian package) keeps every connection busy with one GET route
                             (needs --owns-service); latency from wrk, per-second responses estimated
  --header 'Name: value'   with --closed-loop, a request header (repeatable)
  --threads N              with --closed-loop, wrk's threads (default 1)

pinning (loopback benches):
  --client-cpus LIST       run the native client or wrk on these CPUs (taskset -c), e.g. 1

onboard (against the development chains; every partner must be in the service's ONBOARD_ALLOWLIST):
  --deployment FILE        the chains' deployment (default deploy/devnet/out/deployment.json, from npm run devnet)
  --chain ID               a chain whose token has a permit (default 42161)
  --rate N                 onboardings per second, open loop (default 5)
  --partners-seed S        partners are derived from this seed (default: default)
  --print-partners N       print the first N partners' addresses, comma-separated for ONBOARD_ALLOWLIST, and exit
`

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    target: { type: 'string' },
    duration: { type: 'string', default: '30' },
    workers: { type: 'string', default: String(Math.max(1, availableParallelism() - 1)) },
    'source-ips': { type: 'string' },
    'owns-service': { type: 'boolean', default: false },
    out: { type: 'string' },
    connections: { type: 'string' },
    ramp: { type: 'string', default: '50' },
    pairs: { type: 'string', default: 'all' },
    reconnect: { type: 'boolean', default: false },
    'per-ip-connections': { type: 'string', default: '20' },
    publish: { type: 'string' },
    namespace: { type: 'string', default: '' },
    'tick-rate': { type: 'string', default: '500' },
    client: { type: 'string', default: 'node' },
    warmup: { type: 'string', default: '1' },
    'per-process': { type: 'string', default: '19000' },
    profile: { type: 'string' },
    'all-pairs-share': { type: 'string', default: '10' },
    'slot-ms': { type: 'string', default: '400' },
    'closed-loop': { type: 'boolean', default: false },
    header: { type: 'string', multiple: true },
    threads: { type: 'string', default: '1' },
    'client-cpus': { type: 'string' },
    rate: { type: 'string' },
    route: { type: 'string', multiple: true },
    deployment: { type: 'string', default: 'deploy/devnet/out/deployment.json' },
    chain: { type: 'string', default: '42161' },
    'partners-seed': { type: 'string', default: 'default' },
    'print-partners': { type: 'string' },
    help: { type: 'boolean', default: false },
  },
})

const mode = positionals[0]
if (mode === 'onboard' && values['print-partners']) {
  console.log(
    derivedPartners(values['partners-seed'], Number(values['print-partners']))
      .map((partner) => partner.address)
      .join(','),
  )
  process.exit(0)
}
if (values.help || !values.target || (mode !== 'stream' && mode !== 'rest' && mode !== 'onboard')) {
  console.error(USAGE)
  process.exit(values.help ? 0 : 2)
}

function refuse(message: string): never {
  console.error(message)
  process.exit(2)
}
const number = (name: keyof typeof values, value: string | undefined) => {
  const parsed = Number(value)
  if (!Number.isFinite(parsed) || parsed < 0) refuse(`--${name} must be a number, not ${value}`)
  return parsed
}
const target = values.target
const realistic = values.profile === 'realistic'
if (values.profile !== undefined && !realistic) refuse(`--profile is realistic, not ${values.profile}`)
const connections = number('connections', values.connections ?? (realistic ? '1000' : '100'))
const sourceIps = number('source-ips', values['source-ips'] ?? '0')
const localAddresses = Array.from({ length: sourceIps }, (_, index) => `127.0.0.${index + 1}`)
if (sourceIps > 0 && !['localhost', '127.0.0.1'].includes(new URL(target).hostname)) {
  refuse('--source-ips spreads over loopback addresses: the target must be on this machine')
}
if (values.client !== 'node' && values.client !== 'native') refuse(`--client is node or native, not ${values.client}`)
const native = values.client === 'native' || realistic
const common = {
  target,
  durationSeconds: number('duration', values.duration),
  workers: Math.max(1, number('workers', values.workers)),
  localAddresses,
  ownsService: values['owns-service'],
  log: (line: string) => console.log(line),
}

/** The native client publishes the ticks it measures and opens every connection at once. */
async function nativeStream(): Promise<LoadResult> {
  if (!values.publish || !values['owns-service']) {
    refuse('--client native publishes its own ticks and opens every connection at once: give --publish, --namespace and --owns-service')
  }
  const nc = await connect({ servers: values.publish, name: 'loadtest-native-publisher' })
  try {
    return await runNativeStreamLoad(
      {
        target,
        clientBinary: buildLoadClient(),
        groups: clientGroups(connections, Math.max(1, number('per-process', values['per-process']))),
        pairs: realistic && values.pairs === 'all' ? 'rand:8' : values.pairs,
        allPairsShare: number('all-pairs-share', values['all-pairs-share']),
        sources: realistic && values['source-ips'] === undefined ? loopbackSources(connections) : localAddresses,
        cpus: values['client-cpus'],
        nc,
        namespace: values.namespace,
        serverPids: listeningPids(Number(new URL(target).port)),
      },
      {
        ticksPerSecond: number('tick-rate', values['tick-rate']),
        ...(realistic && { slotMs: number('slot-ms', values['slot-ms']) }),
        warmupSeconds: number('warmup', values.warmup),
        durationSeconds: common.durationSeconds,
        log: common.log,
      },
    )
  } finally {
    await nc.close()
  }
}

/** wrk on one route; it cannot honour rate limits, so only against a service whose limits are lifted. */
function closedLoopRest(): Promise<LoadResult> {
  if (!values['owns-service']) refuse('--closed-loop sends as fast as the service answers: only with --owns-service (limits lifted)')
  if ((values.route ?? []).length > 1) refuse('--closed-loop sends one route')
  const headers = Object.fromEntries(
    (values.header ?? []).map((header) => {
      const match = /^([^:\s]+):\s*(.*)$/.exec(header)
      return match ? ([match[1]!, match[2]!] as const) : refuse(`a header is "Name: value", not "${header}"`)
    }),
  )
  return runClosedLoopRest({
    target,
    route: values.route?.[0] ?? 'GET /v1/prices',
    headers,
    connections: number('connections', values.connections ?? '64'),
    threads: Math.max(1, number('threads', values.threads)),
    durationSeconds: common.durationSeconds,
    cpus: values['client-cpus'],
    log: common.log,
  })
}

let result: LoadResult
if (mode === 'stream' && native) {
  result = await nativeStream()
} else if (mode === 'stream') {
  result = await runStreamLoad({
    ...common,
    connections,
    rampPerSecond: number('ramp', values.ramp),
    pairs: values.pairs,
    reconnect: values.reconnect,
    perIp: { connections: number('per-ip-connections', values['per-ip-connections']), upgradesPerMinute: 60 },
    ...(values.publish && {
      publish: { natsUrl: values.publish, namespace: values.namespace, ticksPerSecond: number('tick-rate', values['tick-rate']) },
    }),
  })
} else if (mode === 'onboard') {
  const rate = number('rate', values.rate ?? '5')
  const durationSeconds = number('duration', values.duration)
  result = await runOnboardLoad({
    target,
    deployment: await readDeploymentFile(values.deployment),
    chainId: number('chain', values.chain),
    ratePerSecond: rate,
    durationSeconds,
    partners: derivedPartners(values['partners-seed'], Math.floor(rate * durationSeconds)),
    log: common.log,
  })
} else if (values['closed-loop']) {
  result = await closedLoopRest()
} else {
  result = await runRestLoad({
    ...common,
    ratePerSecond: number('rate', values.rate ?? '100'),
    routes: values.route ?? ['GET /v1/prices', 'GET /v1/status'],
    connectionsPerWorker: number('connections', values.connections ?? '64'),
  })
}

const out = resolve(values.out ?? `loadtest-results/${mode}-${new Date().toISOString().replace(/[:.]/g, '-')}`)
mkdirSync(dirname(out), { recursive: true })
writeFileSync(`${out}.json`, JSON.stringify(result, null, 2))
writeFileSync(`${out}.html`, renderHtmlReport(result))
const { latency } = result
console.log(
  `done: p50 ${latency.p50Ms} ms, p99 ${latency.p99Ms} ms, max ${latency.maxMs} ms; load client ${result.loadClient.cpuPercentOfCores}% of ${result.loadClient.cores} core(s)`,
)
console.log(`report: ${out}.html (data: ${out}.json)`)
process.exit(0)
