import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client'

/** Every Prometheus metric of the process, named in one place and served at /metrics. */
export function createMetrics() {
  const registry = new Registry()
  collectDefaultMetrics({ register: registry })
  const registers = [registry]
  return {
    registry,
    ticksIngested: new Counter({
      name: 'venue_ticks_ingested_total',
      help: 'Upstream quotes normalised and published to the bus',
      labelNames: ['source'],
      registers,
    }),
    ticksDropped: new Counter({
      name: 'venue_ticks_dropped_total',
      help: 'Upstream data dropped before publishing, by reason',
      labelNames: ['source', 'reason'],
      registers,
    }),
    ticksReceived: new Counter({
      name: 'venue_ticks_received_total',
      help: 'Ticks received from the bus by the snapshot materializer',
      registers,
    }),
    pricedPairs: new Gauge({ name: 'venue_priced_pairs', help: 'Pairs with a price in the snapshot', registers }),
    busConnected: new Gauge({ name: 'venue_bus_connected', help: '1 while the bus is reachable', registers }),
    httpRequests: new Counter({
      name: 'venue_http_requests_total',
      help: 'HTTP responses by route and status',
      labelNames: ['route', 'status'],
      registers,
    }),
    httpDuration: new Histogram({
      name: 'venue_http_request_duration_seconds',
      help: 'Time from request to response',
      labelNames: ['route'],
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers,
    }),
    rateLimited: new Counter({
      name: 'venue_rate_limited_total',
      help: 'Requests refused with 429, by budget',
      labelNames: ['budget'],
      registers,
    }),
  }
}

export type Metrics = ReturnType<typeof createMetrics>
