// What the stream load test's main thread and its client workers say to each other.
import { PAIRS } from '../schemas/pairs.ts'

/** Publish times kept per pair (when the load test publishes the ticks itself): enough for any tick in flight. */
export const PUBLISHED_AT_RING = 8192

/** Where the publish time of a pair's tick number `seq` is kept (ms since the epoch, high resolution). */
export const publishedAtSlot = (pairId: number, seq: number) => pairId * PUBLISHED_AT_RING + (seq % PUBLISHED_AT_RING)

export const publishedAtBuffer = () => new SharedArrayBuffer(PAIRS.length * PUBLISHED_AT_RING * Float64Array.BYTES_PER_ELEMENT)

/**
 * How a tick's latency is known. `published`: this process published it and kept the time (exact).
 * `row-timestamp`: from the row's `timestampSeconds` on the service's clock (estimated offset added to ours);
 * whole seconds, so an upper bound up to a second above the true latency.
 */
export type LatencySource = { kind: 'published'; publishedAt: SharedArrayBuffer } | { kind: 'row-timestamp'; clockOffsetMs: number }

export interface StreamWorkerInput {
  /** the stream URL without query */
  url: string
  /** one query string per connection this worker may open, e.g. '' or '?pairs=BTC-USD,...' */
  queries: string[]
  latency: LatencySource
  /** local addresses the connections are spread over (e.g. 127.0.0.1 to 127.0.0.8); the system's choice when empty */
  localAddresses: string[]
  /** reconnect a connection that closed or was refused, after its Retry-After or a second */
  reconnect: boolean
}

export type StreamCommand =
  /** opens connections (without waiting for them) until `count` are open or opening */
  | { type: 'connect'; count: number }
  /** opens connections until `count` are open, and answers once they are */
  | { type: 'connect-all'; count: number }
  /** counters and latencies since the last reset; `reset` starts a new window */
  | { type: 'report'; reset: boolean }
  /** stops reading on the first `count` connections */
  | { type: 'pause'; count: number }
  | { type: 'resume' }
  | { type: 'close' }

export interface StreamCounters {
  ticks: number
  gaps: number
  /** ticks announced dropped by gap frames */
  dropped: number
  /** seq jumps no gap announced */
  unexplained: number
  /** connections open at the time of the report */
  open: number
  upgrades: number
  reconnects: number
  /** upgrades refused, by HTTP status; connection failures as `error` */
  refused: Record<string, number>
  /** connections closed, by close code (1006: without a close frame) */
  closes: Record<string, number>
}

export type StreamReply = { id: number } & ({ type: 'done'; open: number } | { type: 'report'; counters: StreamCounters; latency: string })
