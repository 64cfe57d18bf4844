// The frames of WS /v1/prices/stream as TypeScript types (the AsyncAPI document describes them; a test
// holds these types equal to the service's own schemas).
import type { components } from './api-types.ts'

export type PriceRow = components['schemas']['PriceRow']

export type StreamErrorCode = 'malformed' | 'unknown_type' | 'invalid_pairs' | 'no_filter' | 'rate_limited'

export interface SnapshotFrame {
  type: 'snapshot'
  /** the baseline seq of every pair the connection receives */
  seq: Record<string, number>
  data: PriceRow[]
}
export interface TickFrame {
  type: 'tick'
  seq: number
  data: PriceRow
}
export interface GapFrame {
  type: 'gap'
  dropped: number
}
export interface AckFrame {
  type: 'ack'
  for: 'subscribe' | 'unsubscribe'
  /** pairs now received: null means all */
  pairCount: number | null
}
export interface ErrorFrame {
  type: 'error'
  code: StreamErrorCode
  message: string
}
export type ServerFrame = SnapshotFrame | TickFrame | GapFrame | AckFrame | ErrorFrame

export interface ClientMessage {
  type: 'subscribe' | 'unsubscribe'
  pairs: string[]
}
