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
  /** `ws`: WebSocket upgrades; `sse`: GET with Accept: text/event-stream */
  transport: 'ws' | 'sse'
  /**
   * ask for cursors and reopen after the last one (`?from=` on the WebSocket, Last-Event-ID on the event
   * stream): a recovered resume keeps the connection's seq baselines, so a jump across it is a tick lost
   */
  resume: boolean
  /** the connections ask for a fixed rate (`?rate=fixed_rate@...`): a seq jump no gap announced is ticks folded */
  folds: boolean
  /**
   * set when the connections hold the candle stream: its period in ms. Candle frames are counted as `ticks`,
   * and a closed candle's latency is from its period's end (the service's clock) to the client reading it.
   */
  candlePeriodMs?: number
}

export type StreamCommand =
  /** opens connections (without waiting for them) until `count` are open or opening */
  | { type: 'connect'; count: number }
  /** opens connections until `count` are open, and answers once they are */
  | { type: 'connect-all'; count: number }
  /** counters and latencies since the last reset; `reset` starts a new window */
  | { type: 'report'; reset: boolean }
  /** closes `count` connections that have their first frame (snapshot or resumed); each reopens at once */
  | { type: 'drop'; count: number }
  /** answers once every connection a `drop` closed is back and has its first frame, or after `withinMs` */
  | { type: 'settle'; withinMs: number }
  /** stops reading on the first `count` connections */
  | { type: 'pause'; count: number }
  | { type: 'resume' }
  | { type: 'close' }

export interface StreamCounters {
  ticks: number
  gaps: number
  /** ticks announced dropped by gap frames */
  dropped: number
  /** seq jumps no gap announced (at real time) */
  unexplained: number
  /** at a fixed rate, the ticks folded into the rows received (seq jumps no gap announced) */
  folded: number
  /** heartbeat frames (`?heartbeat=`) */
  heartbeats: number
  /** candle frames with `closed: true` (the candle stream; counted in `ticks` too) */
  closedCandles: number
  snapshots: number
  /** `resumed` frames: recovered, and not (a snapshot followed) */
  recovered: number
  notRecovered: number
  /** bytes of every frame (or event's data) received */
  bytes: number
  /** connections open at the time of the report */
  open: number
  upgrades: number
  reconnects: number
  /** connections a storm closed (its share of those open at that moment) */
  stormClosed: number
  /** upgrades refused, by HTTP status; connection failures as `error` */
  refused: Record<string, number>
  /** connections closed, by close code (1006: without a close frame) */
  closes: Record<string, number>
}

/** The counters a window adds up (`open` is a reading, not a count). */
export const SUMMED_COUNTERS = [
  'ticks',
  'gaps',
  'dropped',
  'unexplained',
  'folded',
  'heartbeats',
  'closedCandles',
  'snapshots',
  'recovered',
  'notRecovered',
  'bytes',
  'upgrades',
  'reconnects',
  'stormClosed',
] as const

export function freshCounters(): StreamCounters {
  return {
    ticks: 0,
    gaps: 0,
    dropped: 0,
    unexplained: 0,
    folded: 0,
    heartbeats: 0,
    closedCandles: 0,
    snapshots: 0,
    recovered: 0,
    notRecovered: 0,
    bytes: 0,
    open: 0,
    upgrades: 0,
    reconnects: 0,
    stormClosed: 0,
    refused: {},
    closes: {},
  }
}

/** Adds `from`'s counts (and its refusals and closes by kind) to `into`. */
export function addCounters(into: Omit<StreamCounters, 'open'>, from: StreamCounters): void {
  for (const key of SUMMED_COUNTERS) into[key] += from[key]
  for (const key of ['refused', 'closes'] as const) {
    for (const [name, count] of Object.entries(from[key])) into[key][name] = (into[key][name] ?? 0) + count
  }
}

export type StreamReply = { id: number } & ({ type: 'done'; open: number } | { type: 'report'; counters: StreamCounters; latency: string })
