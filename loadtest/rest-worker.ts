// A worker thread of the REST load test: sends requests open-loop on a fixed schedule, whether or not the
// earlier ones have been answered, and records each latency from when the request was due (not when it
// could be sent), correcting for coordinated omission as wrk2 does.
import { Agent, request } from 'node:http'
import { Agent as TlsAgent, request as requestTls } from 'node:https'
import { parentPort, workerData } from 'node:worker_threads'
import type { Histogram } from 'hdr-histogram-js'
import { encodeHistogram, latencyHistogram } from './latency.ts'
import { routeName, type RestCommand, type RestCounters, type RestReply, type RestWorkerInput } from './rest-protocol.ts'

const input = workerData as RestWorkerInput
const target = new URL(input.target)
const secure = target.protocol === 'https:'
const agent = new (secure ? TlsAgent : Agent)({ keepAlive: true, maxSockets: input.connections })
const names = input.routes.map(routeName)
/** until when (ms since the epoch) each route's budget is spent */
const blockedUntil = new Map<string, number>()

let counters = freshCounters()
let latency = latencyHistogram()
let routeLatency = new Map<string, Histogram>()
let timer: NodeJS.Timeout | undefined

function freshCounters(): RestCounters {
  return { offered: 0, sent: 0, completed: 0, failed: 0, deferred: 0, statuses: {} }
}

const now = () => performance.timeOrigin + performance.now()

function noteBudget(name: string, headers: Record<string, string | string[] | undefined>, status: number) {
  if (!input.honourRateLimits) return
  const seconds =
    status === 429
      ? Number(headers['retry-after'])
      : headers['x-ratelimit-remaining'] === '0'
        ? Number(headers['x-ratelimit-reset'])
        : undefined
  if (seconds !== undefined && Number.isFinite(seconds)) blockedUntil.set(name, now() + Math.max(seconds, 0.1) * 1000)
}

function send(index: number, dueAt: number) {
  const route = input.routes[index % input.routes.length]!
  const name = names[index % names.length]!
  counters.offered++
  if ((blockedUntil.get(name) ?? 0) > now()) return void counters.deferred++
  counters.sent++
  const localAddress = input.localAddresses.length > 0 ? input.localAddresses[index % input.localAddresses.length] : undefined
  const options = {
    method: route.method,
    path: route.path,
    host: target.hostname,
    port: target.port,
    agent,
    ...(localAddress && { localAddress }),
  }
  const outgoing = (secure ? requestTls : request)(options, (response) => {
    response.resume()
    response.on('end', () => {
      const latencyUs = Math.max(1, Math.round((now() - dueAt) * 1000))
      latency.recordValue(latencyUs)
      let histogram = routeLatency.get(name)
      if (!histogram) routeLatency.set(name, (histogram = latencyHistogram()))
      histogram.recordValue(latencyUs)
      counters.completed++
      const statuses = (counters.statuses[name] ??= {})
      const status = String(response.statusCode)
      statuses[status] = (statuses[status] ?? 0) + 1
      noteBudget(name, response.headers, response.statusCode ?? 0)
    })
  })
  outgoing.on('error', () => void counters.failed++)
  outgoing.end()
}

function start(atMs: number, durationMs: number) {
  let index = 0
  const total = Math.floor((durationMs / 1000) * input.ratePerSecond)
  timer = setInterval(() => {
    const due = Math.min(total, Math.floor(((now() - atMs) / 1000) * input.ratePerSecond))
    for (; index < due; index++) send(index, atMs + (index * 1000) / input.ratePerSecond)
    if (index >= total) clearInterval(timer)
  }, 1)
}

const reply = (message: RestReply) => parentPort!.postMessage(message)

parentPort!.on('message', (command: RestCommand & { id: number }) => {
  const { id } = command
  switch (command.type) {
    case 'start':
      start(command.atMs, command.durationMs)
      return reply({ id, type: 'done' })
    case 'report': {
      const routes = Object.fromEntries([...routeLatency].map(([name, histogram]) => [name, encodeHistogram(histogram)]))
      reply({ id, type: 'report', counters, latency: encodeHistogram(latency), routes })
      if (command.reset) {
        counters = freshCounters()
        latency = latencyHistogram()
        routeLatency = new Map()
      }
      return
    }
    case 'stop':
      clearInterval(timer)
      agent.destroy()
      return reply({ id, type: 'done' })
  }
})
