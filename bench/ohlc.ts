// POST /v1/ohlc answered from the candle store (Redis, filled with 30 days of one pair's minutes): requests/s
// and latency of the service beside a bare uWebSockets.js route writing the same bytes, in one run, for a
// small, a middle and a full answer (30 daily candles, 720 hourly, a page of 1000 minutes). The edge runs as
// deployed (compiled, `edge` role, history off: answers come from the store alone) on CPU 0 with the baseline;
// the load is the load test's closed-loop engine (wrk) on CPU 1.
// Usage: npm run bench:ohlc [-- --runs 3 --seconds 10 --connections 32 --cases 1D:30,60:720,1:1000]
import { spawn, type ChildProcess } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { Redis } from 'ioredis'
import { parseCommandLine } from '../kit/command-line.ts'
import { loadAverage } from '../loadtest/cpu-meter.ts'
import { pinned } from '../loadtest/pinning.ts'
import { requireWrk } from '../loadtest/wrk-load.ts'
import { tickCandle, mergeCandles, type Candle } from '../services/candles/candle.ts'
import { redisCandleStore } from '../services/candles/redis-candle-store.ts'
import { RESOLUTION_SECONDS } from '../services/candles/resolutions.ts'
import { OHLC_RESOLUTIONS } from '../schemas/ohlc.ts'
import { freePort, startNats, startRedis } from '../test/support/servers.ts'
import { startServiceProcess } from '../test/support/service-process.ts'
import { measureClosedLoop } from './closed-loop.ts'
import { compiledService, IMAGE_ENV } from './deployed-edge.ts'
import { median, printTable, writeFiguresWithLoad } from './report.ts'

const command = parseCommandLine({
  usage: 'npm run bench:ohlc -- [options]',
  summary:
    'POST /v1/ohlc answered from Redis: requests/s and latency of the compiled edge beside a bare uWebSockets.js route\n' +
    'writing the same bytes, in one run, per answer size; servers on CPU 0, wrk (Debian package) on CPU 1.',
  options: {
    runs: { type: 'string', default: '3', value: 'N', description: 'runs' },
    seconds: { type: 'string', default: '10', value: 'S', description: 'seconds of load per server, case and run' },
    connections: { type: 'string', default: '32', value: 'N', description: "wrk's connections" },
    cases: {
      type: 'string',
      default: '1D:30,60:720,1:1000',
      value: 'LIST',
      description: 'answers measured, as resolution:candles (resolutions 1, 5, 15, 60, 240, 1D; at most 1000 candles)',
    },
  },
})
const runs = command.number('runs', { min: 1, integer: true })
const seconds = command.number('seconds', { min: 1, integer: true })
const connections = command.number('connections', { min: 1, integer: true })
const cases = command.values.cases.split(',').map((text) => {
  const [resolution = '', candles = ''] = text.split(':')
  return {
    resolution: command.choice('cases', OHLC_RESOLUTIONS, resolution),
    candles: command.number('cases', { min: 1, max: 1000, integer: true }, candles),
  }
})
requireWrk()

// 30 days of BTC-USD minutes, each from a few ticks with mids as the simulator prints them, merged the
// way the candle writer merges them (every resolution at once)
const DAYS = 30
const now = Math.floor(Date.now() / 60_000) * 60
const [redisServer, nats] = await Promise.all([startRedis(), startNats()])
const keyPrefix = `bench${randomUUID().slice(0, 8)}`
const redis = new Redis(redisServer.url)
await new Promise((resolve) => redis.once('ready', resolve))
const store = redisCandleStore({ redis, keyPrefix, keepPerResolution: 20_160 })
let mid = 95_000
for (let from = now - DAYS * 86_400; from < now; from += 2000 * 60) {
  const minutes: Candle[] = []
  for (let minute = from; minute < Math.min(now, from + 2000 * 60); minute += 60) {
    let candle = tickCandle((mid *= 1 + (Math.random() - 0.5) * 0.001), minute + 3)
    for (const second of [17, 34, 51])
      candle = mergeCandles(candle, tickCandle((mid *= 1 + (Math.random() - 0.5) * 0.001), minute + second))
    minutes.push(candle)
  }
  await store.merge('BTC-USD', minutes)
}
await redis.quit()

const entry = compiledService()
const servicePort = await freePort()
const [node, ...serviceArgs] = pinned('0', [process.execPath])
const service = startServiceProcess(
  ['edge'],
  {
    ...IMAGE_ENV,
    NATS_URL: nats.url,
    BUS_NAMESPACE: keyPrefix,
    REDIS_URL: redisServer.url,
    CANDLES_KEY_PREFIX: keyPrefix,
    HOST: '127.0.0.1',
    PORT: String(servicePort),
    RATE_LIMITS_ENABLED: 'false',
    LOG_LEVEL: 'warn',
    ONBOARDING_ENABLED: 'false',
  },
  { command: node!, args: serviceArgs },
  entry,
)
const serviceBase = `http://127.0.0.1:${servicePort}`
const bodies = cases.map(({ resolution, candles }) =>
  JSON.stringify({
    pair: 'BTC-USD',
    fromTimestampSeconds: now - candles * RESOLUTION_SECONDS[resolution],
    toTimestampSeconds: now,
    resolution,
  }),
)
const answered = () =>
  fetch(`${serviceBase}/v1/ohlc`, { method: 'POST', body: bodies[0] }).then(
    (response) => response.status === 200,
    () => false,
  )
for (let attempt = 0; !(await answered()); attempt++) {
  if (attempt > 600) throw new Error('the service did not answer POST /v1/ohlc')
  await new Promise((resolve) => setTimeout(resolve, 100))
}

const baselinePort = await freePort()
const [baselineCommand, ...baselineArgs] = pinned('0', [
  process.execPath,
  '--import',
  'tsx',
  new URL('./ohlc-baseline-server.ts', import.meta.url).pathname,
  `${serviceBase}/v1/ohlc`,
  String(baselinePort),
  JSON.stringify(bodies),
])
const baseline: ChildProcess = spawn(baselineCommand!, baselineArgs, { stdio: ['ignore', 'pipe', 'inherit'] })
const sizes = await new Promise<string>((resolve) => baseline.stdout!.once('data', (line: Buffer) => resolve(line.toString().trim())))
const baselineBase = `http://127.0.0.1:${baselinePort}`

const closedLoop = (base: string, body: string, serverPid: number) =>
  measureClosedLoop({ base, route: 'POST /v1/ohlc', body, connections, seconds, serverPid })

const loadBefore = loadAverage()
console.log(`POST /v1/ohlc from Redis, ${runs} runs of ${seconds} s, ${connections} connections, wrk on CPU 1, servers on CPU 0`)
console.log(`${sizes}; load average ${loadBefore}`)
const rows: Array<Record<string, string | number>> = []
const ratios = new Map<string, number[]>(cases.map(({ resolution, candles }) => [`${resolution}:${candles}`, []]))
for (let run = 1; run <= runs; run++) {
  for (const [index, { resolution, candles }] of cases.entries()) {
    const name = `${resolution}:${candles}`
    const ours = await closedLoop(serviceBase, bodies[index]!, service.child.pid!)
    const base = await closedLoop(baselineBase, bodies[index]!, baseline.pid!)
    ratios.get(name)!.push(ours.requestsPerSecond / base.requestsPerSecond)
    for (const [server, figures] of [
      ['service', ours],
      ['bare uWS', base],
    ] as const) {
      rows.push({
        run,
        case: name,
        server,
        'req/s': Math.round(figures.requestsPerSecond),
        'p50 ms': figures.p50Ms,
        'p99 ms': figures.p99Ms,
        errors: figures.errors,
        'server CPU µs/req': Number(figures.serverCpuUsPerRequest.toFixed(1)),
        'CPU0 busy %': Math.round(figures.cores[0]! * 100),
        'CPU1 (wrk) busy %': Math.round((figures.cores[1] ?? 0) * 100),
      })
      console.log(Object.values(rows.at(-1)!).join('  '))
    }
  }
}
printTable(rows)
const summary = Object.fromEntries(
  [...ratios].map(([name, values]) => {
    console.log(`${name}: service / bare uWS ${values.map((value) => value.toFixed(2)).join(', ')} (median ${median(values).toFixed(2)})`)
    return [name, { medianRatio: median(values), ratios: values }]
  }),
)
writeFiguresWithLoad('ohlc', { runs: rows, summary, seconds, connections, sizes }, loadBefore)

baseline.kill()
await service.stop()
await Promise.all([redisServer.dispose(), nats.dispose()])
