import type { Histogram } from 'hdr-histogram-js'
import { addHistograms, latencyHistogram, summarize } from './latency.ts'
import { cpuShare, latencyTotals, progressLine, type LoadResult, type SecondFigures } from './load-result.ts'
import type { RestCommand, RestCounters, RestReply, RestRoute, RestWorkerInput } from './rest-protocol.ts'
import { WorkerGroup } from './worker-threads.ts'

export interface RestLoadOptions {
  target: string
  /** requests per second offered, over all routes and workers */
  ratePerSecond: number
  durationSeconds: number
  /** 'GET /v1/prices', ... : requests go round-robin over them */
  routes: string[]
  connectionsPerWorker: number
  workers: number
  localAddresses: string[]
  /** the service's limits are lifted: send regardless of x-ratelimit-* */
  ownsService: boolean
  log: (line: string) => void
}

/** After the schedule ends, answers still in flight are waited for this long at most. */
const DRAIN_MS = 5000

function parseRoute(text: string): RestRoute {
  const match = /^(GET|HEAD|POST|PUT|DELETE|PATCH)\s+(\/\S*)$/.exec(text.trim())
  if (!match) throw new Error(`a route is "METHOD /path", not "${text}"`)
  return { method: match[1]!, path: match[2]! }
}

interface Window {
  counters: RestCounters
  latency: Histogram
  routes: Map<string, Histogram>
}

async function report(group: WorkerGroup<RestWorkerInput, RestCommand, RestReply>): Promise<Window> {
  const counters: RestCounters = { offered: 0, sent: 0, completed: 0, failed: 0, deferred: 0, statuses: {} }
  const latency = latencyHistogram()
  const routes = new Map<string, Histogram>()
  for (const reply of await group.ask(() => ({ type: 'report', reset: true }))) {
    if (reply.type !== 'report') continue
    for (const key of ['offered', 'sent', 'completed', 'failed', 'deferred'] as const) counters[key] += reply.counters[key]
    for (const [route, statuses] of Object.entries(reply.counters.statuses)) {
      const into = (counters.statuses[route] ??= {})
      for (const [status, count] of Object.entries(statuses)) into[status] = (into[status] ?? 0) + count
    }
    addHistograms(latency, [reply.latency])
    for (const [route, encoded] of Object.entries(reply.routes)) {
      if (!routes.has(route)) routes.set(route, latencyHistogram())
      addHistograms(routes.get(route)!, [encoded])
    }
  }
  return { counters, latency, routes }
}

const errorsOf = (counters: RestCounters) =>
  counters.failed +
  Object.values(counters.statuses)
    .flatMap((statuses) => Object.entries(statuses))
    .filter(([status]) => Number(status) >= 500)
    .reduce((sum, [, count]) => sum + count, 0)

export async function runRestLoad(options: RestLoadOptions): Promise<LoadResult> {
  const routes = options.routes.map(parseRoute)
  const inputs: RestWorkerInput[] = Array.from({ length: options.workers }, () => ({
    target: options.target,
    routes,
    ratePerSecond: options.ratePerSecond / options.workers,
    connections: options.connectionsPerWorker,
    localAddresses: options.localAddresses,
    honourRateLimits: !options.ownsService,
  }))
  const group = new WorkerGroup<RestWorkerInput, RestCommand, RestReply>(new URL('./rest-worker.ts', import.meta.url), inputs)
  const cpu = cpuShare(options.workers + 1)
  const total: Window = {
    counters: { offered: 0, sent: 0, completed: 0, failed: 0, deferred: 0, statuses: {} },
    latency: latencyHistogram(),
    routes: new Map(),
  }
  const add = (window: Window) => {
    for (const key of ['offered', 'sent', 'completed', 'failed', 'deferred'] as const) total.counters[key] += window.counters[key]
    for (const [route, statuses] of Object.entries(window.counters.statuses)) {
      const into = (total.counters.statuses[route] ??= {})
      for (const [status, count] of Object.entries(statuses)) into[status] = (into[status] ?? 0) + count
    }
    total.latency.add(window.latency)
    for (const [route, histogram] of window.routes) {
      if (!total.routes.has(route)) total.routes.set(route, latencyHistogram())
      total.routes.get(route)!.add(histogram)
    }
  }
  const series: SecondFigures[] = []
  const startedAt = new Date()
  // the workers start their schedules together, a moment from now
  const atMs = performance.timeOrigin + performance.now() + 200
  const durationMs = options.durationSeconds * 1000
  await group.ask(() => ({ type: 'start', atMs, durationMs }))
  const started = atMs - performance.timeOrigin
  try {
    const seconds = options.durationSeconds + DRAIN_MS / 1000
    for (let second = 1; second <= seconds; second++) {
      await new Promise((resolve) => setTimeout(resolve, started + second * 1000 - performance.now()))
      const window = await report(group)
      add(window)
      const figures: SecondFigures = {
        second,
        offeredPerSecond: window.counters.offered,
        deliveredPerSecond: window.counters.completed,
        errors: errorsOf(window.counters),
        latency: summarize(window.latency),
        extra: { deferred: window.counters.deferred, 'in flight': total.counters.sent - total.counters.completed - total.counters.failed },
      }
      if (second > options.durationSeconds && figures.extra['in flight'] === 0) break
      series.push(figures)
      options.log(progressLine(figures, cpu.sinceLast(), 'responses'))
    }
  } finally {
    await group.ask(() => ({ type: 'stop' }))
    await group.terminate()
  }
  const { counters } = total
  const unanswered = counters.sent - counters.completed - counters.failed
  const notes = [
    'latency is measured from when each request was due on the schedule, so a stalled service counts the wait of every request it held up (coordinated omission corrected)',
    ...(unanswered > 0 ? [`${unanswered} requests still unanswered ${DRAIN_MS / 1000} s after the schedule ended`] : []),
    ...(counters.deferred > 0
      ? [
          `${counters.deferred} requests not sent while a route's rate-limit budget was spent (x-ratelimit-remaining 0 or 429); --owns-service sends them`,
        ]
      : []),
  ]
  return {
    mode: 'rest',
    target: options.target,
    startedAt: startedAt.toISOString(),
    durationSeconds: options.durationSeconds,
    options: { ...options, log: undefined },
    latencyMeaning: 'request due on the schedule to response complete',
    series,
    latency: latencyTotals(total.latency),
    totals: {
      offered: counters.offered,
      sent: counters.sent,
      completed: counters.completed,
      failed: counters.failed,
      deferred: counters.deferred,
      statusesByRoute: counters.statuses,
      latencyByRoute: Object.fromEntries([...total.routes].map(([route, histogram]) => [route, summarize(histogram)])),
    },
    loadClient: { workers: options.workers, cores: options.workers + 1, cpuPercentOfCores: cpu.overall() },
    notes,
  }
}
