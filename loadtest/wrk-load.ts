// The rest mode's closed-loop engine (`loadtest rest --closed-loop`): wrk (Debian package) keeps every
// connection busy with one request after another, so the figure is the most the service answers (its
// ceiling), which an open loop at a fixed rate does not find. wrk prints its figures once, at the end (a
// small Lua `done` hook writes them as JSON, latency percentiles included); while it runs, each second's
// responses are estimated from the bytes it read that second, and scaled afterwards to its exact count.
import { spawn, spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { processCpuMs } from './cpu-meter.ts'
import { DISTRIBUTION_PERCENTILES, type LatencySummary } from './latency.ts'
import { cpuShare, progressLine, type LoadResult, type MeasuredWindow, type SecondFigures } from './load-result.ts'
import { pinned } from './pinning.ts'

export interface ClosedLoopOptions {
  /** the service's base URL */
  target: string
  /** 'GET /path?query' (or 'POST /path' with `body`): wrk sends one request, repeated */
  route: string
  /** the body of a POST route, sent as application/json */
  body?: string
  /** request headers, e.g. { 'Accept-Encoding': 'gzip' } */
  headers: Record<string, string>
  /** connections wrk keeps busy */
  connections: number
  /** wrk threads */
  threads: number
  durationSeconds: number
  /** CPUs wrk runs on (taskset -c), e.g. '1' */
  cpus?: string
  log: (line: string) => void
  measured?: MeasuredWindow
}

interface WrkFigures {
  requests: number
  durationUs: number
  bytes: number
  errors: { connect: number; read: number; write: number; status: number; timeout: number }
  minUs: number
  maxUs: number
  /** [percentile, µs] at DISTRIBUTION_PERCENTILES above 0 */
  percentilesUs: Array<[number, number]>
}

/** wrk's `done` hook: its summary and latency percentiles as one JSON line; before it, a POST's method and body. */
const doneScript = (body: string | undefined) => `${
  body === undefined ? '' : `wrk.method = "POST"\nwrk.body = ${JSON.stringify(body)}\nwrk.headers["Content-Type"] = "application/json"\n`
}
done = function(summary, latency, requests)
  local points = {}
  for _, p in ipairs({ ${DISTRIBUTION_PERCENTILES.filter((percentile) => percentile > 0).join(', ')} }) do
    points[#points + 1] = string.format("[%g,%d]", p, latency:percentile(p))
  end
  local e = summary.errors
  io.write(string.format('WRK_RESULT {"requests":%d,"durationUs":%d,"bytes":%d,"errors":{"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d},"minUs":%d,"maxUs":%d,"percentilesUs":[%s]}\\n',
    summary.requests, summary.duration, summary.bytes, e.connect, e.read, e.write, e.status, e.timeout, latency.min, latency.max, table.concat(points, ",")))
end
`

/** Throws unless wrk is on the PATH. */
export function requireWrk(): void {
  if (spawnSync('wrk', ['--version']).error) throw new Error('the closed loop needs wrk on the PATH (Debian: apt-get install wrk)')
}

function parseRoute(route: string, target: string, body: string | undefined): URL {
  const match = /^(GET|POST)\s+(\/\S*)$/.exec(route.trim())
  if (!match || (match[1] === 'POST') !== (body !== undefined)) {
    throw new Error(`the closed loop sends one GET route, or a POST route with a body, e.g. "GET /v1/prices", not "${route}"`)
  }
  return new URL(match[2]!, target)
}

/** The bytes of one response as wrk reads them (status line, headers and body, undecoded): for the estimate while it runs. */
function responseBytes(url: URL, headers: Record<string, string>, body: string | undefined): Promise<number> {
  return new Promise((resolve, reject) => {
    const method = body === undefined ? 'GET' : 'POST'
    request(url, { method, headers: { ...headers, ...(body !== undefined && { 'content-type': 'application/json' }) } }, (response) => {
      let bytes = `HTTP/1.1 ${response.statusCode} ${response.statusMessage}\r\n\r\n`.length
      for (let index = 0; index < response.rawHeaders.length; index += 2) {
        bytes += `${response.rawHeaders[index]}: ${response.rawHeaders[index + 1]}\r\n`.length
      }
      response.on('data', (chunk: Buffer) => (bytes += chunk.length))
      response.on('end', () => resolve(bytes))
    })
      .on('error', reject)
      .end(body)
  })
}

const ms = (microseconds: number) => Math.round(microseconds) / 1000

function latencyOf(figures: WrkFigures): LoadResult['latency'] {
  const at = (percentile: number) => ms(figures.percentilesUs.find(([point]) => point === percentile)?.[1] ?? Number.NaN)
  const summary: LatencySummary = {
    count: figures.requests,
    p50Ms: at(50),
    p90Ms: at(90),
    p99Ms: at(99),
    p999Ms: at(99.9),
    maxMs: ms(figures.maxUs),
  }
  const distribution = [
    { percentile: 0, ms: ms(figures.minUs) },
    ...figures.percentilesUs.map(([percentile, us]) => ({ percentile, ms: ms(us) })),
    { percentile: 100, ms: ms(figures.maxUs) },
  ]
  return { ...summary, distribution }
}

export async function runClosedLoopRest(options: ClosedLoopOptions): Promise<LoadResult> {
  requireWrk()
  const url = parseRoute(options.route, options.target, options.body)
  const estimatedResponseBytes = await responseBytes(url, options.headers, options.body)
  const script = join(mkdtempSync(join(tmpdir(), 'wrk-')), 'done.lua')
  writeFileSync(script, doneScript(options.body))
  const headerArgs = Object.entries(options.headers).flatMap(([name, value]) => ['-H', `${name}: ${value}`])
  const [command, ...args] = pinned(options.cpus, [
    'wrk',
    `-t${options.threads}`,
    `-c${options.connections}`,
    `-d${options.durationSeconds}s`,
    '-s',
    script,
    ...headerArgs,
    url.href,
  ])
  const startedAt = new Date()
  const closeWindow = options.measured?.()
  const wrk = spawn(command!, args, { stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  wrk.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
  wrk.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
  const exited = new Promise<number | null>((resolve, reject) => {
    wrk.once('error', reject)
    wrk.once('exit', resolve)
  })
  const pid = wrk.pid!
  /** what wrk has read (sockets included) and its CPU so far; undefined once it has exited */
  const probe = () => {
    try {
      return { read: Number(/^rchar: (\d+)/m.exec(readFileSync(`/proc/${pid}/io`, 'utf8'))?.[1] ?? 0), cpuMs: processCpuMs(pid) }
    } catch {
      return undefined
    }
  }
  let cpuMs = 0
  const cpu = cpuShare(1, () => cpuMs)
  const started = performance.now()
  const bytesPerSecond: number[] = []
  const series: SecondFigures[] = []
  let readBefore = 0
  const second = (read: number, cpuPercent: number) => {
    const delta = Math.max(0, read - readBefore)
    readBefore = read
    bytesPerSecond.push(delta)
    const figures: SecondFigures = {
      second: series.length + 1,
      deliveredPerSecond: Math.round(delta / estimatedResponseBytes),
      extra: { 'MB read': Math.round(delta / 1e4) / 100 },
    }
    series.push(figures)
    options.log(progressLine(figures, cpuPercent, 'responses (estimated)'))
  }
  // every second but the last while wrk runs; the last from its own count of bytes once it has finished
  for (let at = 1; at < options.durationSeconds; at++) {
    await sleep(started + at * 1000 - performance.now())
    const now = probe()
    if (!now) break
    cpuMs = now.cpuMs
    second(now.read, cpu.sinceLast())
  }
  const clientPercent = cpu.overall()
  const code = await exited
  closeWindow?.()
  const line = /^WRK_RESULT (.*)$/m.exec(output)
  if (code !== 0 || !line) throw new Error(`wrk exited with ${code}:\n${output}`)
  const figures = JSON.parse(line[1]!) as WrkFigures
  second(figures.bytes, clientPercent)
  // each second's share of the bytes read, applied to wrk's exact count
  const totalRead = bytesPerSecond.reduce((total, bytes) => total + bytes, 0)
  for (const [index, point] of series.entries())
    point.deliveredPerSecond = Math.round((bytesPerSecond[index]! / totalRead) * figures.requests)
  const socketErrors = figures.errors.connect + figures.errors.read + figures.errors.write + figures.errors.timeout
  const seconds = figures.durationUs / 1e6
  return {
    mode: 'rest',
    target: options.target,
    startedAt: startedAt.toISOString(),
    durationSeconds: Math.round(seconds * 10) / 10,
    options: { ...options, log: undefined, measured: undefined, loop: 'closed (wrk)' },
    latencyMeaning: 'request sent to response complete, per connection in a closed loop (wrk): the ceiling, not a latency at a given rate',
    series,
    latency: latencyOf(figures),
    totals: {
      requests: figures.requests,
      requestsPerSecond: Math.round((figures.requests / seconds) * 10) / 10,
      bytes: figures.bytes,
      // answers outside 2xx and 3xx
      statusErrors: figures.errors.status,
      socketErrors,
    },
    loadClient: { workers: options.threads, kind: 'wrk thread(s)', cores: 1, cpuPercentOfCores: clientPercent },
    notes: [
      `each second's responses are estimated from the bytes wrk read that second (one response: ${estimatedResponseBytes} bytes), scaled to wrk's count; wrk reports latency for the whole run only`,
      `wrk${options.cpus === undefined ? '' : ` on CPU ${options.cpus}`}: its CPU is shown as a share of one core, sampled while it ran (all seconds but the last)`,
    ],
  }
}
