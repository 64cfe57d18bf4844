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
/** The frames of a connection that asked for cursors (`?cursor=true`, `?from=`): the same, with the cursor last. */
export interface SnapshotFrameWithCursor extends SnapshotFrame {
  /** the cursor of the latest tick the snapshot accounts for */
  cursor: string
}
export interface TickFrameWithCursor extends TickFrame {
  /** the tick's place in the deployment's numbering: resume after it with `?from=` */
  cursor: string
}
export interface GapFrameWithCursor extends GapFrame {
  cursor: string
}
/** Sent after `?heartbeat=<seconds>` of silence; with the cursor of the latest tick sent when the connection carries cursors. */
export interface HeartbeatFrame {
  type: 'heartbeat'
  /** when it was sent, in milliseconds since the epoch */
  time: number
}
export interface HeartbeatFrameWithCursor extends HeartbeatFrame {
  cursor: string
}
/** The first frame of a resume: with `recovered: true` the ticks after `cursor` follow, else a snapshot. */
export interface ResumedFrame {
  type: 'resumed'
  recovered: boolean
  cursor?: string | undefined
}
/**
 * Compact frames (`?format=compact`): the snapshot adds the pair id of each row; a tick carries the changing
 * fields by position, and a pair's static part comes in the snapshot or a `static` frame, again when it changes.
 */
export interface CompactSnapshotFrame extends SnapshotFrame {
  /** the pair id of each row of `data`, in order */
  ids: number[]
}
export interface CompactSnapshotFrameWithCursor extends CompactSnapshotFrame {
  cursor: string
}
/** A row's fields that stay the same from tick to tick. */
export type RowStaticPart = Omit<
  PriceRow,
  'bid' | 'mid' | 'ask' | 'isMarketOpen' | 'isDayTradingClosed' | 'secondsToToggleIsDayTradingClosed' | 'timestampSeconds'
>
export interface StaticFrame {
  type: 'static'
  /** the pair id */
  p: number
  data: RowStaticPart
}
export interface CompactTickFrame {
  type: 't'
  seq: number
  /** the pair id */
  p: number
  /** bid, mid, ask, flags (isMarketOpen 1 plus isDayTradingClosed 2), secondsToToggleIsDayTradingClosed, timestampSeconds */
  d: [number, number, number, number, number, number]
}
export interface CompactTickFrameWithCursor extends CompactTickFrame {
  cursor: string
}
/**
 * `?batch=true`: one window's frames (real time: the ticks sent together, up to 16 KiB), in the order they would
 * come one by one
 */
export interface BatchFrame {
  type: 'batch'
  frames: (TickFrame | TickFrameWithCursor | GapFrame | GapFrameWithCursor | StaticFrame | CompactTickFrame | CompactTickFrameWithCursor)[]
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
export type ServerFrame =
  | SnapshotFrame
  | SnapshotFrameWithCursor
  | TickFrame
  | TickFrameWithCursor
  | GapFrame
  | GapFrameWithCursor
  | ResumedFrame
  | HeartbeatFrame
  | HeartbeatFrameWithCursor
  | AckFrame
  | ErrorFrame
  | CompactSnapshotFrame
  | CompactSnapshotFrameWithCursor
  | StaticFrame
  | CompactTickFrame
  | CompactTickFrameWithCursor
  | BatchFrame

export interface ClientMessage {
  type: 'subscribe' | 'unsubscribe'
  pairs: string[]
}

// The frames of /v1/candles/stream.

/** A candle as POST /v1/ohlc answers it (`time` in milliseconds), with its resolution and whether its period is over. */
export interface StreamCandle {
  from: string
  to: string
  time: number
  open: number
  high: number
  low: number
  close: number
  resolution: '1' | '5' | '15' | '60' | '240' | '1D'
  closed: boolean
}
export interface CandleSnapshotFrame {
  type: 'snapshot'
  /** per pair: its last closed candle, then its forming one, where they exist */
  data: StreamCandle[]
}
export interface CandleFrame {
  type: 'candle'
  data: StreamCandle
}
/** `heartbeat` only with `?heartbeat=`, and without a cursor: the candle stream has none */
export type CandleServerFrame = CandleSnapshotFrame | CandleFrame | GapFrame | HeartbeatFrame
