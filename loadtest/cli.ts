// The load test: `npm run loadtest -- <stream|rest|onboard> --target <url> [options]` (or `venue-loadtest`),
// against any deployment. Prints a progress line every second, then writes <out>.json and <out>.html.
import { connect } from '@nats-io/transport-node'
import { mkdirSync, writeFileSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { dirname, resolve } from 'node:path'
import { errorLine, parseCommandLine } from '../kit/command-line.ts'
import { renderHtmlReport } from './html-report.ts'
import type { LoadResult } from './load-result.ts'
import { buildLoadClient } from './native-stream-client.ts'
import { clientGroups, loopbackSources, runNativeStreamLoad } from './native-stream-load.ts'
import { runRestLoad } from './rest-load.ts'
import { isCpuList } from './pinning.ts'
import { listeningPids } from './server-processes.ts'
import { OHLC_RESOLUTIONS } from '../schemas/ohlc.ts'
import { STREAM_RATES } from '../schemas/stream.ts'
import { pairSelectionProblem, runStreamLoad } from './stream-load.ts'
import { runClosedLoopRest } from './wrk-load.ts'

// the usage's headings
const SECTIONS = {
  common: 'common',
  stream: 'stream',
  rest: 'rest',
  pinning: 'pinning (loopback benches)',
  onboard: "onboard (against the development chains; every partner must be in the service's ONBOARD_ALLOWLIST)",
}
const command = parseCommandLine({
  usage: 'npm run loadtest -- <stream|rest|onboard> --target URL [options]   (or venue-loadtest)',
  summary: 'The load test, against any deployment: prints a progress line every second, then writes <out>.json and <out>.html.',
  maxPositionals: 1,
  options: {
    target: {
      type: 'string',
      value: 'URL',
      section: SECTIONS.common,
      description: "the service's base URL: http:// or https://; for stream also ws:// or wss:// (the same host and port)",
    },
    duration: { type: 'string', default: '30', value: 'S', section: SECTIONS.common, description: 'seconds of load' },
    workers: {
      type: 'string',
      default: String(Math.max(1, availableParallelism() - 1)),
      value: 'N',
      section: SECTIONS.common,
      description: 'client worker threads (by default cores - 1, at least 1)',
    },
    'source-ips': {
      type: 'string',
      value: 'N',
      section: SECTIONS.common,
      description: 'spread connections over 127.0.0.1 ... 127.0.0.N (loopback targets only)',
    },
    'owns-service': {
      type: 'boolean',
      default: false,
      section: SECTIONS.common,
      description: "the service's limits are lifted (RATE_LIMITS_ENABLED=false): do not plan around them",
    },
    out: {
      type: 'string',
      value: 'PATH',
      section: SECTIONS.common,
      description: 'report path without extension (default loadtest-results/<mode>-<time>)',
    },
    connections: {
      type: 'string',
      value: 'N',
      section: SECTIONS.stream,
      description:
        "connections to hold (default 100; 1000 with --profile realistic);\nrest: sockets per worker (default 64), with --closed-loop wrk's connections",
    },
    ramp: {
      type: 'string',
      default: '50',
      value: 'N',
      section: SECTIONS.stream,
      description: 'new connections per second (held within 60 upgrades/min per IP)',
    },
    pairs: {
      type: 'string',
      default: 'all',
      value: 'all|rand:N|A,B',
      section: SECTIONS.stream,
      description: 'what each connection receives',
    },
    channel: {
      type: 'string',
      default: 'prices',
      value: 'prices|candles',
      section: SECTIONS.stream,
      description:
        "prices: the price stream; candles: the candle stream of --resolution (node client),\ncounting candle frames, and timing closed candles from their period's end",
    },
    resolution: {
      type: 'string',
      default: '1',
      value: 'R',
      section: SECTIONS.stream,
      description: "with --channel candles, the candles' width: 1, 5, 15, 60, 240 or 1D",
    },
    reconnect: { type: 'boolean', default: false, section: SECTIONS.stream, description: 'reopen closed or refused connections' },
    transport: {
      type: 'string',
      default: 'ws',
      value: 'ws|sse',
      section: SECTIONS.stream,
      description: 'ws: WebSocket; sse: Server-Sent Events on the same path (node client)',
    },
    resume: {
      type: 'boolean',
      default: false,
      section: SECTIONS.stream,
      description: 'ask for cursors; every reopen resumes after the last one (?from=, Last-Event-ID)',
    },
    batch: {
      type: 'boolean',
      default: false,
      section: SECTIONS.stream,
      description:
        'over WebSocket: each window of a fixed --rate, or the ticks the server sends together at real time,\nin one batch frame (?batch=true), its frames counted as if they came alone (node client)',
    },
    heartbeat: {
      type: 'string',
      value: 'S',
      section: SECTIONS.stream,
      description: 'connections ask for a heartbeat frame after S seconds (1 to 60) of silence,\ncounted as heartbeats (node client)',
    },
    'storm-every': {
      type: 'string',
      value: 'S',
      section: SECTIONS.stream,
      description:
        'a reconnect storm every S seconds: --storm-share of the connections close and\nreopen at once (with --resume: resume storms) (node client)',
    },
    'storm-share': {
      type: 'string',
      default: '50',
      value: 'PCT',
      section: SECTIONS.stream,
      description: 'with --storm-every, the share of the connections that close',
    },
    'per-ip-connections': {
      type: 'string',
      default: '20',
      value: 'N',
      section: SECTIONS.stream,
      description: "the service's connection ceiling per IP",
    },
    publish: {
      type: 'string',
      value: 'NATS_URL',
      section: SECTIONS.stream,
      description: "publish the ticks on the service's bus (exact latency), with --namespace and --tick-rate",
    },
    namespace: {
      type: 'string',
      default: '',
      value: 'NS',
      section: SECTIONS.stream,
      description: "with --publish, the service's BUS_NAMESPACE",
    },
    'tick-rate': {
      type: 'string',
      default: '500',
      value: 'N',
      section: SECTIONS.stream,
      description: 'with --publish, ticks per second over all pairs',
    },
    client: {
      type: 'string',
      default: 'node',
      value: 'node|native',
      section: SECTIONS.stream,
      description:
        "node: worker-thread clients; native: the repository's epoll client in C\n" +
        '(loadtest/native, built with cc), processes of up to --per-process connections\n' +
        'on --client-cpus, every connection opened at once (needs --publish and\n' +
        '--owns-service, and a service on this machine admitting Origin http://bench,\n' +
        "e.g. STREAM_ALLOWED_ORIGINS=*); the service's CPU and RSS are reported",
    },
    warmup: {
      type: 'string',
      default: '1',
      value: 'S',
      section: SECTIONS.stream,
      description: 'native: seconds of publishing before the measured window',
    },
    'per-process': {
      type: 'string',
      default: '19000',
      value: 'N',
      section: SECTIONS.stream,
      description: 'native: connections per client process (under a 20,000 file limit)',
    },
    profile: {
      type: 'string',
      value: 'realistic',
      section: SECTIONS.stream,
      description:
        'native, the production regime: --connections (default 1000) each taking\n' +
        '--pairs rand:8 (default), --all-pairs-share of them every pair, ticks at the\n' +
        "real feed's rhythm (every pair once per --slot-ms), from 127.0.0.2 onwards\n" +
        '(one address per 15,000 connections, at least 2; or --source-ips)',
    },
    'all-pairs-share': {
      type: 'string',
      default: '10',
      value: 'PCT',
      section: SECTIONS.stream,
      description: 'with --pairs rand:N, the share of connections taking every pair',
    },
    'slot-ms': {
      type: 'string',
      default: '400',
      value: 'MS',
      section: SECTIONS.stream,
      description: "the feed's slot: every pair ticks once per slot (Pyth's)",
    },
    rate: {
      type: 'string',
      value: 'N',
      section: SECTIONS.rest,
      description:
        'requests per second, open loop (default 100);\nonboard: onboardings per second, open loop (default 5);\nstream: the rate the connections ask for (?rate=): real_time (default),\nfixed_rate@50ms, fixed_rate@200ms or fixed_rate@1000ms; at a fixed rate seq\njumps count as folded, not lost (node client)',
    },
    route: {
      type: 'string',
      multiple: true,
      value: "'GET /v1/prices'",
      section: SECTIONS.rest,
      description: 'a route (repeatable; default GET /v1/prices and GET /v1/status)',
    },
    'closed-loop': {
      type: 'boolean',
      default: false,
      section: SECTIONS.rest,
      description:
        'the ceiling: wrk (Debian package) keeps every connection busy with one GET route\n' +
        '(needs --owns-service); latency from wrk, per-second responses estimated',
    },
    header: {
      type: 'string',
      multiple: true,
      value: "'Name: value'",
      section: SECTIONS.rest,
      description: 'with --closed-loop, a request header (repeatable)',
    },
    threads: { type: 'string', default: '1', value: 'N', section: SECTIONS.rest, description: "with --closed-loop, wrk's threads" },
    'client-cpus': {
      type: 'string',
      value: 'LIST',
      section: SECTIONS.pinning,
      description: 'run the native client or wrk on these CPUs (taskset -c), e.g. 1',
    },
    deployment: {
      type: 'string',
      default: 'deploy/devnet/out/deployment.json',
      value: 'FILE',
      section: SECTIONS.onboard,
      description: "the chains' deployment (from npm run devnet)",
    },
    chain: { type: 'string', default: '42161', value: 'ID', section: SECTIONS.onboard, description: 'a chain whose token has a permit' },
    'partners-seed': {
      type: 'string',
      default: 'default',
      value: 'S',
      section: SECTIONS.onboard,
      description: 'partners are derived from this seed',
    },
    'print-partners': {
      type: 'string',
      value: 'N',
      section: SECTIONS.onboard,
      description: "print the first N partners' addresses, comma-separated for ONBOARD_ALLOWLIST, and exit",
    },
  },
})
const { values } = command
const mode = command.positionals[0]
// the onboard mode's chain libraries are loaded by that mode only
const onboardEngine = () => import('./onboard-load.ts')
if (mode === 'onboard' && values['print-partners'] !== undefined) {
  const { derivedPartners } = await onboardEngine()
  console.log(
    derivedPartners(values['partners-seed'], command.number('print-partners', { min: 1, integer: true }))
      .map((partner) => partner.address)
      .join(','),
  )
  process.exit(0)
}
if (mode !== 'stream' && mode !== 'rest' && mode !== 'onboard') {
  command.refuse(mode ? `the mode is stream, rest or onboard, not "${mode}"` : 'give a mode: stream, rest or onboard')
}
const target = values.target ?? command.refuse('give the service with --target URL')
command.url('--target', target, mode === 'stream' ? ['http:', 'https:', 'ws:', 'wss:'] : ['http:', 'https:'])

const refuse = command.refuse
const number = (name: keyof typeof values, value: string | undefined) => command.number(name, { min: 0 }, value)
const realistic = values.profile !== undefined && command.choice('profile', ['realistic']) === 'realistic'
const pairsProblem = pairSelectionProblem(values.pairs)
if (pairsProblem) refuse(pairsProblem)
if (values['client-cpus'] !== undefined && !isCpuList(values['client-cpus'])) {
  refuse(`--client-cpus is a CPU list such as 1, 0,1 or 0-3, not "${values['client-cpus']}"`)
}
const connections = number('connections', values.connections ?? (realistic ? '1000' : '100'))
const sourceIps = number('source-ips', values['source-ips'] ?? '0')
const localAddresses = Array.from({ length: sourceIps }, (_, index) => `127.0.0.${index + 1}`)
if (sourceIps > 0 && !['localhost', '127.0.0.1'].includes(new URL(target).hostname)) {
  refuse('--source-ips spreads over loopback addresses: the target must be on this machine')
}
const native = command.choice('client', ['node', 'native']) === 'native' || realistic
const transport = command.choice('transport', ['ws', 'sse'])
const stormEvery = values['storm-every'] === undefined ? undefined : command.number('storm-every', { min: 1, integer: true })
const heartbeatSeconds = values.heartbeat === undefined ? undefined : command.number('heartbeat', { min: 1, max: 60, integer: true })
const streamRate = mode === 'stream' ? command.choice('rate', STREAM_RATES, values.rate ?? 'real_time') : 'real_time'
if (native && (transport === 'sse' || stormEvery !== undefined || values.resume))
  refuse('--transport sse, --resume and --storm-every run on the node client')
if (native && (heartbeatSeconds !== undefined || streamRate !== 'real_time')) refuse('--heartbeat and --rate run on the node client')
if (values.batch && transport === 'sse') refuse('--batch is for WebSocket: an event stream sends one event per frame')
const channel = command.choice('channel', ['prices', 'candles'])
const resolution = command.choice('resolution', OHLC_RESOLUTIONS)
if (channel === 'candles' && native) refuse('--channel candles runs on the node client')
if (channel === 'candles' && (values.resume || streamRate !== 'real_time'))
  refuse("--resume and --rate are the price stream's: the candle stream has no cursor and one rate")
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
try {
  if (mode === 'stream' && native) {
    result = await nativeStream()
  } else if (mode === 'stream') {
    result = await runStreamLoad({
      ...common,
      connections,
      rampPerSecond: number('ramp', values.ramp),
      pairs: values.pairs,
      ...(channel === 'candles' && { channel, resolution }),
      reconnect: values.reconnect,
      transport,
      resume: values.resume,
      heartbeatSeconds,
      ...(streamRate !== 'real_time' && { streamRate }),
      ...(values.batch && { batch: true }),
      ...(stormEvery !== undefined && { storm: { everySeconds: stormEvery, share: command.number('storm-share', { min: 0, max: 100 }) } }),
      perIp: { connections: number('per-ip-connections', values['per-ip-connections']), upgradesPerMinute: 60 },
      ...(values.publish && {
        publish: { natsUrl: values.publish, namespace: values.namespace, ticksPerSecond: number('tick-rate', values['tick-rate']) },
      }),
    })
  } else if (mode === 'onboard') {
    const rate = number('rate', values.rate ?? '5')
    const durationSeconds = number('duration', values.duration)
    const [{ derivedPartners, runOnboardLoad }, { readDeploymentFile }] = await Promise.all([
      onboardEngine(),
      import('../services/onboarding/index.ts'),
    ])
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
} catch (error) {
  // a target that does not answer, a ceiling the run cannot fit: one line, no stack
  console.error(`loadtest: ${errorLine(error)}`)
  process.exit(1)
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
