// GET /v1/prices: requests/s and latency of the service beside a bare uWebSockets.js route writing the
// same bytes, in one run, uncompressed and for clients sending Accept-Encoding gzip and br. This script
// starts the servers; the load is the load test's closed-loop engine (loadtest/wrk-load.ts, driving wrk).
// The servers are pinned to CPU 0 and wrk to CPU 1. Beside every figure: the server's CPU time per request
// (steadier than req/s on a busy machine) and the busy share of each core (CPU 1 is the load client's).
// Usage: npm run bench:rest [-- --runs 3 --seconds 10 --connections 64 --codings identity,gzip,br]
import { spawn, type ChildProcess } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { parseCommandLine } from '../kit/command-line.ts'
import { loadAverage } from '../loadtest/cpu-meter.ts'
import { pinned } from '../loadtest/pinning.ts'
import { requireWrk } from '../loadtest/wrk-load.ts'
import { freePort, startNats } from '../test/support/servers.ts'
import { compiledService, IMAGE_ENV } from './deployed-edge.ts'
import { startServiceProcess } from '../test/support/service-process.ts'
import { measureClosedLoop, type ClosedLoopFigures } from './closed-loop.ts'
import { median, printTable, writeFiguresWithLoad } from './report.ts'

const CODINGS = ['identity', 'gzip', 'br'] as const
const command = parseCommandLine({
  usage: 'npm run bench:rest -- [options]',
  summary:
    'GET /v1/prices: requests/s and latency of the compiled edge beside a bare uWebSockets.js route writing the same\n' +
    'bytes, in one run, per Accept-Encoding; servers on CPU 0, wrk (Debian package) on CPU 1.',
  options: {
    runs: { type: 'string', default: '3', value: 'N', description: 'runs' },
    seconds: { type: 'string', default: '10', value: 'S', description: 'seconds of load per server, coding and run' },
    connections: { type: 'string', default: '64', value: 'N', description: "wrk's connections" },
    codings: { type: 'string', default: CODINGS.join(','), value: 'LIST', description: `what clients accept: ${CODINGS.join(', ')}` },
  },
})
const runs = command.number('runs', { min: 1, integer: true })
const seconds = command.number('seconds', { min: 1, integer: true })
const connections = command.number('connections', { min: 1, integer: true })
const codings = command.values.codings.split(',').map((coding) => command.choice('codings', CODINGS, coding))

requireWrk()

type Figures = ClosedLoopFigures

const closedLoop = (base: string, coding: string, serverPid: number): Promise<Figures> =>
  measureClosedLoop({
    base,
    route: 'GET /v1/prices',
    headers: coding === 'identity' ? {} : { 'Accept-Encoding': coding },
    connections,
    seconds,
    serverPid,
  })

// the edge as deployed: the compiled edge role alone on CPU 0, fed over NATS by an ingestor process on
// CPU 1 (the simulated feed at 200 ticks/s: the snapshot changes 200 times a second, and each change is
// compressed once per coding asked for)
const nats = await startNats()
const namespace = `bench${randomUUID().slice(0, 8)}`
const entry = compiledService()
const busEnv = {
  NATS_URL: nats.url,
  BUS_NAMESPACE: namespace,
  HOST: '127.0.0.1',
  LOG_LEVEL: 'warn',
  ONBOARDING_ENABLED: 'false',
  ...IMAGE_ENV,
}
const [feedNode, ...feedArgs] = pinned('1', [process.execPath])
const feed = startServiceProcess(
  ['ingestor'],
  { ...busEnv, OPS_PORT: String(await freePort()), SIM_TICKS_PER_SECOND: '200' },
  { command: feedNode!, args: feedArgs },
  entry,
)
const servicePort = await freePort()
const [node, ...serviceArgs] = pinned('0', [process.execPath])
const service = startServiceProcess(
  ['edge'],
  { ...busEnv, PORT: String(servicePort), RATE_LIMITS_ENABLED: 'false' },
  { command: node!, args: serviceArgs },
  entry,
)
const serviceBase = `http://127.0.0.1:${servicePort}`
const serviceUrl = `${serviceBase}/v1/prices`
for (let attempt = 0; (await fetch(serviceUrl).catch(() => undefined))?.status !== 200; attempt++) {
  if (attempt > 400) throw new Error('the service did not serve a snapshot')
  await new Promise((resolve) => setTimeout(resolve, 50))
}

const baselinePort = await freePort()
const [baselineCommand, ...baselineArgs] = pinned('0', [
  process.execPath,
  '--import',
  'tsx',
  new URL('./rest-baseline-server.ts', import.meta.url).pathname,
  serviceUrl,
  String(baselinePort),
])
const baseline: ChildProcess = spawn(baselineCommand!, baselineArgs, { stdio: ['ignore', 'pipe', 'inherit'] })
const sizes = await new Promise<string>((resolve) => baseline.stdout!.once('data', (line: Buffer) => resolve(line.toString().trim())))
const baselineBase = `http://127.0.0.1:${baselinePort}`

const loadBefore = loadAverage()
console.log(`GET /v1/prices, ${runs} runs of ${seconds} s, ${connections} connections, wrk on CPU 1, servers on CPU 0`)
console.log(`${sizes}; load average ${loadBefore}`)
const rows: Array<Record<string, string | number>> = []
const ratios: Record<string, number[]> = Object.fromEntries(codings.map((coding) => [coding, []]))
const rates: Record<string, number[]> = Object.fromEntries(codings.map((coding) => [coding, []]))
const row = (run: number, server: string, coding: string, figures: Figures) => ({
  run,
  server,
  coding,
  'req/s': Math.round(figures.requestsPerSecond),
  'p50 ms': figures.p50Ms,
  'p99 ms': figures.p99Ms,
  errors: figures.errors,
  'server CPU µs/req': Number(figures.serverCpuUsPerRequest.toFixed(2)),
  'server CPU %': Math.round(figures.serverCpu * 100),
  'CPU0 busy %': Math.round(figures.cores[0]! * 100),
  'CPU1 (wrk) busy %': Math.round((figures.cores[1] ?? 0) * 100),
})
for (let run = 1; run <= runs; run++) {
  for (const coding of codings) {
    const ours = await closedLoop(serviceBase, coding, service.child.pid!)
    const base = await closedLoop(baselineBase, coding, baseline.pid!)
    ratios[coding]!.push(ours.requestsPerSecond / base.requestsPerSecond)
    rates[coding]!.push(ours.requestsPerSecond)
    rows.push(row(run, 'service', coding, ours), row(run, 'bare uWS', coding, base))
    console.log(Object.values(rows.at(-2)!).join('  '))
    console.log(Object.values(rows.at(-1)!).join('  '))
  }
}
printTable(rows)
const summary: Record<string, unknown> = {}
for (const coding of codings) {
  const ratio = median(ratios[coding]!)
  const versusIdentity = codings.includes('identity') ? median(rates[coding]!) / median(rates.identity!) : undefined
  summary[coding] = { medianRatio: ratio, ratios: ratios[coding], medianRequestsPerSecond: median(rates[coding]!), versusIdentity }
  console.log(
    `${coding}: service / bare uWS ${ratios[coding]!.map((value) => value.toFixed(2)).join(', ')} (median ${ratio.toFixed(2)}; target >= 0.90)` +
      (versusIdentity === undefined ? '' : `; service ${coding} / service identity ${versusIdentity.toFixed(2)} (target >= 1)`),
  )
}
writeFiguresWithLoad('rest', { runs: rows, summary, seconds, connections, sizes }, loadBefore)

baseline.kill()
await service.stop()
await feed.stop()
await nats.dispose()
