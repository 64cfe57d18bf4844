// What the REST load test's main thread and its workers say to each other.

export interface RestRoute {
  method: string
  path: string
}

export const routeName = (route: RestRoute) => `${route.method} ${route.path}`

export interface RestWorkerInput {
  target: string
  routes: RestRoute[]
  /** this worker's share of the offered rate */
  ratePerSecond: number
  connections: number
  localAddresses: string[]
  /** skip a route while its budget is spent (x-ratelimit-remaining 0, or a 429), counting what was skipped */
  honourRateLimits: boolean
}

export type RestCommand = { type: 'start'; atMs: number; durationMs: number } | { type: 'report'; reset: boolean } | { type: 'stop' }

export interface RestCounters {
  /** requests due by the schedule */
  offered: number
  sent: number
  completed: number
  /** requests that got no response (connection errors) */
  failed: number
  /** requests not sent because the route's rate-limit budget was spent */
  deferred: number
  /** responses by route, then status */
  statuses: Record<string, Record<string, number>>
}

export type RestReply = { id: number } & (
  { type: 'done' } | { type: 'report'; counters: RestCounters; latency: string; routes: Record<string, string> }
)
