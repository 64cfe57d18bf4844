// POST /v1/subgraph/gn: requests/s and latency of the door's cached answers beside a bare uWebSockets.js
// POST route writing the same bytes, in one run. Both servers run pinned to CPU 0 (one at a time under
// load), the load client (autocannon, closed loop, its CLI in a child process) on CPU 1. Every measured
// request is a cache hit: what the door adds is its request path (budget off), parsing and costing the
// query, and the cache lookup.
// Usage: npm run bench:subgraph-door [-- --runs 3 --seconds 10 --connections 64]
import { spawn, type ChildProcess } from 'node:child_process'
import { createRequire } from 'node:module'
import { parseCommandLine, progressReporter } from '../kit/command-line.ts'
import { loadAverage } from '../loadtest/cpu-meter.ts'
import { pinned } from '../loadtest/pinning.ts'
import { freePort } from '../test/support/servers.ts'
import { median, printTable, writeFiguresWithLoad } from './report.ts'
import { BENCH_QUERY_BODY } from './subgraph-door-query.ts'

const command = parseCommandLine({
  usage: 'npm run bench:subgraph-door -- [options]',
  summary:
    "POST /v1/subgraph/gn: requests/s and latency of the door's cached answers beside a bare uWebSockets.js POST route\n" +
    'writing the same bytes, in one run; servers on CPU 0, autocannon on CPU 1.',
  options: {
    runs: { type: 'string', default: '3', value: 'N', description: 'runs, each loading the door and then the baseline' },
    seconds: { type: 'string', default: '10', value: 'S', description: 'seconds of load per server and run' },
    connections: { type: 'string', default: '64', value: 'N', description: "autocannon's connections" },
  },
})
const [runs, seconds, connections] = (['runs', 'seconds', 'connections'] as const).map((option) =>
  command.number(option, { min: 1, integer: true }),
) as [number, number, number]
const progress = progressReporter()
const autocannonCli = createRequire(import.meta.url).resolve('autocannon/autocannon.js')
const serversScript = new URL('./subgraph-door-servers.ts', import.meta.url).pathname

/** Starts one of the two servers on CPU 0 and waits for its "listening" line. */
async function startServer(role: 'door' | 'baseline', port: number, doorUrl = ''): Promise<{ child: ChildProcess; line: string }> {
  const [command, ...rest] = pinned('0', [process.execPath, '--import', 'tsx', serversScript, role, String(port), doorUrl])
  const child = spawn(command!, rest, { stdio: ['ignore', 'pipe', 'inherit'] })
  const line = await new Promise<string>((resolve, reject) => {
    child.stdout.once('data', (data: Buffer) => resolve(data.toString().trim()))
    child.once('exit', (code) => reject(new Error(`${role} server exited (${code})`)))
  })
  return { child, line }
}

interface Figures {
  requestsPerSecond: number
  p50Ms: number
  p99Ms: number
  errors: number
}

/** autocannon's CLI on CPU 1, POSTing the bench body for `seconds`; its JSON summary. */
function load(url: string): Promise<Figures> {
  const [command, ...rest] = pinned('1', [
    process.execPath,
    autocannonCli,
    '--json',
    '--method',
    'POST',
    '--headers',
    'content-type=application/json',
    '--body',
    BENCH_QUERY_BODY,
    '--connections',
    String(connections),
    '--duration',
    String(seconds),
    url,
  ])
  return new Promise((resolve, reject) => {
    const child = spawn(command!, rest, { stdio: ['ignore', 'pipe', 'ignore'] })
    let output = ''
    child.stdout.on('data', (data: Buffer) => (output += data.toString()))
    child.once('exit', (code) => {
      if (code !== 0) return reject(new Error(`autocannon exited with ${code}`))
      const result = JSON.parse(output) as {
        requests: { average: number }
        latency: { p50: number; p99: number }
        non2xx: number
        errors: number
      }
      resolve({
        requestsPerSecond: result.requests.average,
        p50Ms: result.latency.p50,
        p99Ms: result.latency.p99,
        errors: result.non2xx + result.errors,
      })
    })
  })
}

const doorPort = await freePort()
const door = await startServer('door', doorPort)
const doorUrl = `http://127.0.0.1:${doorPort}/v1/subgraph/gn`
const baselinePort = await freePort()
const baseline = await startServer('baseline', baselinePort, doorUrl)
const baselineUrl = `http://127.0.0.1:${baselinePort}/v1/subgraph/gn`

const loadBefore = loadAverage()
console.log(
  `POST /v1/subgraph/gn (cached), ${runs} runs of ${seconds} s, ${connections} connections, autocannon on CPU 1, servers on CPU 0`,
)
console.log(`${baseline.line}; load average ${loadBefore}`)
const rows: Array<Record<string, string | number>> = []
const ratios: number[] = []
for (let run = 1; run <= runs; run++) {
  progress(`run ${run} of ${runs}: the door, then the baseline, ${seconds} s each`)
  const ours = await load(doorUrl)
  const bare = await load(baselineUrl)
  ratios.push(ours.requestsPerSecond / bare.requestsPerSecond)
  for (const [server, figures] of [
    ['door', ours],
    ['bare uWS', bare],
  ] as const) {
    rows.push({
      run,
      server,
      'req/s': Math.round(figures.requestsPerSecond),
      'p50 ms': figures.p50Ms,
      'p99 ms': figures.p99Ms,
      errors: figures.errors,
    })
    console.log(Object.values(rows.at(-1)!).join('  '))
  }
}
printTable(rows)
const ratio = median(ratios)
console.log(`door / bare uWS ${ratios.map((value) => value.toFixed(2)).join(', ')} (median ${ratio.toFixed(2)})`)
writeFiguresWithLoad('subgraph-door', { runs: rows, medianRatio: ratio, ratios, seconds, connections, baseline: baseline.line }, loadBefore)

baseline.child.kill()
door.child.kill()
