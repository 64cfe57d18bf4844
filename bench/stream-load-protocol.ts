// What the stream bench's main thread and its load workers say to each other.
import { build } from 'hdr-histogram-js'
import { PAIRS } from '../schemas/pairs.ts'

/** Publish times kept per pair: enough for any tick still in flight. */
export const PUBLISHED_AT_RING = 8192

/** Where the publish time of a pair's tick number `seq` is kept (ms since the epoch, high resolution). */
export const publishedAtSlot = (pairId: number, seq: number) => pairId * PUBLISHED_AT_RING + (seq % PUBLISHED_AT_RING)

/** Tick latency in microseconds, up to two minutes; the workers' histograms are added up in the main thread. */
export const latencyHistogram = () =>
  build({ lowestDiscernibleValue: 1, highestTrackableValue: 120_000_000, numberOfSignificantValueDigits: 3 })

export const publishedAtBuffer = () => new SharedArrayBuffer(PAIRS.length * PUBLISHED_AT_RING * Float64Array.BYTES_PER_ELEMENT)

export interface WorkerInput {
  /** the stream URL without query */
  url: string
  /** one query string per connection, e.g. '' or '?pairs=BTC-USD,...' */
  queries: string[]
  publishedAt: SharedArrayBuffer
}

export type WorkerCommand =
  /** opens connections until `share` of this worker's queries are open */
  | { type: 'connect'; share: number }
  /** starts a measuring window: counters and latencies from now on */
  | { type: 'window' }
  | { type: 'report' }
  /** stops reading on the first `count` connections */
  | { type: 'pause'; count: number }
  | { type: 'resume' }
  | { type: 'close' }

export type WorkerReport =
  | { type: 'connected'; connections: number }
  | { type: 'window' | 'paused' | 'resumed' | 'closed' }
  | {
      type: 'report'
      ticks: number
      gaps: number
      dropped: number
      /** seq jumps no gap announced (lost on the way to the server, or a server bug) */
      unexplained: number
      closed: number
      /** hdr histogram of tick latency in microseconds, compressed */
      latency: string
    }
