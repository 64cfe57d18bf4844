// GET /v1/prices: requests/s and latency of the service beside a plain node:http baseline, in one run.
// Each server is pinned to CPU 0 and wrk to CPU 1, so the load tool never competes with the server.
// Usage: npm run bench:rest [-- --runs 3 --seconds 10 --connections 64]
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { parseArgs } from 'node:util'
import { freePort } from '../test/support/servers.ts'
import { startServiceProcess } from '../test/support/service-process.ts'
import { median, printTable, writeResult } from './report.ts'

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    seconds: { type: 'string', default: '10' },
    connections: { type: 'string', default: '64' },
  },
})
const runs = Number(args.runs)
const seconds = Number(args.seconds)
const connections = Number(args.connections)

if (spawnSync('wrk', ['--version']).error) {
  console.error('bench:rest needs wrk on the PATH (Debian: apt-get install wrk)')
  process.exit(1)
}
const pin = (cpu: number, command: string[]) =>
  spawnSync('taskset', ['--version']).error ? command : ['taskset', '-c', String(cpu), ...command]

interface WrkFigures {
  requestsPerSecond: number
  p50Ms: number
  p99Ms: number
  errors: number
}

function runWrk(url: string): WrkFigures {
  const [command, ...rest] = pin(1, ['wrk', '-t1', `-c${connections}`, `-d${seconds}s`, '--latency', url])
  const output = spawnSync(command!, rest, { encoding: 'utf8' }).stdout
  const latency = (percent: string) => {
    const match = new RegExp(`^\\s+${percent}%\\s+([\\d.]+)(us|ms|s)`, 'm').exec(output)
    if (!match) throw new Error(`no ${percent}% latency in wrk output:\n${output}`)
    return Number(match[1]) * { us: 0.001, ms: 1, s: 1000 }[match[2] as 'us' | 'ms' | 's']
  }
  const errors = /Non-2xx or 3xx responses: (\d+)/.exec(output)
  return {
    requestsPerSecond: Number(/Requests\/sec:\s+([\d.]+)/.exec(output)![1]),
    p50Ms: latency('50'),
    p99Ms: latency('99'),
    errors: errors ? Number(errors[1]) : 0,
  }
}

const servicePort = await freePort()
const [node, ...serviceArgs] = pin(0, [process.execPath])
const service = startServiceProcess(
  [],
  {
    PORT: String(servicePort),
    HOST: '127.0.0.1',
    RATE_LIMITS_ENABLED: 'false',
    LOG_LEVEL: 'warn',
    SIM_TICKS_PER_SECOND: '200',
  },
  { command: node!, args: serviceArgs },
)
const serviceUrl = `http://127.0.0.1:${servicePort}/v1/prices`
for (let attempt = 0; (await fetch(serviceUrl).catch(() => undefined))?.status !== 200; attempt++) {
  if (attempt > 200) throw new Error('the service did not serve a snapshot')
  await new Promise((resolve) => setTimeout(resolve, 50))
}

const baselinePort = await freePort()
const [baselineCommand, ...baselineArgs] = pin(0, [
  process.execPath,
  '--import',
  'tsx',
  new URL('./rest-baseline-server.ts', import.meta.url).pathname,
  serviceUrl,
  String(baselinePort),
])
const baseline: ChildProcess = spawn(baselineCommand!, baselineArgs, { stdio: ['ignore', 'pipe', 'inherit'] })
await new Promise((resolve) => baseline.stdout!.once('data', resolve))
const baselineUrl = `http://127.0.0.1:${baselinePort}/v1/prices`

console.log(`GET /v1/prices, ${runs} runs of ${seconds} s, ${connections} connections, wrk on CPU 1, servers on CPU 0`)
const rows: Array<Record<string, string | number>> = []
const ratios: number[] = []
for (let run = 1; run <= runs; run++) {
  const ours = runWrk(serviceUrl)
  const base = runWrk(baselineUrl)
  ratios.push(ours.requestsPerSecond / base.requestsPerSecond)
  rows.push({
    run,
    server: 'service (uWS)',
    'req/s': Math.round(ours.requestsPerSecond),
    'p50 ms': ours.p50Ms,
    'p99 ms': ours.p99Ms,
    errors: ours.errors,
  })
  rows.push({
    run,
    server: 'baseline (node:http)',
    'req/s': Math.round(base.requestsPerSecond),
    'p50 ms': base.p50Ms,
    'p99 ms': base.p99Ms,
    errors: base.errors,
  })
}
printTable(rows)
console.log(
  `ratio service / baseline: ${ratios.map((ratio) => ratio.toFixed(1)).join(', ')} (median ${median(ratios).toFixed(1)}x; target >= 5x, p99 < 10 ms)`,
)
const file = writeResult('rest', { runs: rows, ratios, medianRatio: median(ratios), seconds, connections })
console.log(`written ${file}`)

baseline.kill()
await service.stop()
