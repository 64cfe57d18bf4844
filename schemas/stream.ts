import { z } from 'zod'
import { OHLC_RESOLUTIONS, OhlcCandle } from './ohlc.ts'
import { PriceRow } from './price.ts'

// Spec 6: frames of WS /v1/prices/stream (and the `data` of its Server-Sent Events). A connection that opted
// in (`?cursor=true` or `?from=`), and every event, gets the snapshot, tick and gap frames with their cursor.

export const STREAM_ERROR_CODES = ['malformed', 'unknown_type', 'invalid_pairs', 'no_filter', 'rate_limited'] as const
export type StreamErrorCode = (typeof STREAM_ERROR_CODES)[number]

/**
 * `?rate=`: `real_time` (the default) sends every tick as it comes; `fixed_rate@<n>ms` sends, at the end of each
 * n ms window, the latest row of each pair that changed in it.
 */
export const STREAM_RATES = ['real_time', 'fixed_rate@50ms', 'fixed_rate@200ms', 'fixed_rate@1000ms'] as const

/** `<epoch>-<position>`: one tick of the deployment's numbering (docs/stream.md, the loss contract) */
export const Cursor = z
  .string()
  .regex(/^[0-9a-z]{1,16}-(0|[1-9][0-9]{0,14})$/)
  .meta({ description: 'The place of this frame in the deployment-wide numbering: resume after it with `?from=` or `Last-Event-ID`' })

export const SnapshotFrame = z.strictObject({
  type: z.literal('snapshot'),
  seq: z.record(z.string(), z.number().int()),
  data: z.array(PriceRow),
})

export const TickFrame = z.strictObject({
  type: z.literal('tick'),
  seq: z.number().int(),
  data: PriceRow,
})

export const GapFrame = z.strictObject({
  type: z.literal('gap'),
  dropped: z.number().int().positive(),
})

// The same frames for a connection that opted in: the cursor last.
export const SnapshotFrameWithCursor = SnapshotFrame.extend({ cursor: Cursor })
export const TickFrameWithCursor = TickFrame.extend({ cursor: Cursor })
export const GapFrameWithCursor = GapFrame.extend({ cursor: Cursor })

// Compact frames (`?format=compact`): a row's static part comes once, the tick carries the rest by position.

/** A row without its prices, flags and timestamp: what stays the same from tick to tick. */
export const RowStaticPart = PriceRow.omit({
  bid: true,
  mid: true,
  ask: true,
  isMarketOpen: true,
  isDayTradingClosed: true,
  secondsToToggleIsDayTradingClosed: true,
  timestampSeconds: true,
})

const PairId = z.number().int().nonnegative().meta({ description: "The pair's id: the snapshot's `ids` and static frames name it" })

/** The snapshot of a compact connection: the full rows, and the pair id of each row (`ids[i]` is `data[i]`'s). */
export const CompactSnapshotFrame = SnapshotFrame.extend({ ids: z.array(PairId) })
export const CompactSnapshotFrameWithCursor = CompactSnapshotFrame.extend({ cursor: Cursor })

/** A pair's static part: before its first tick when the connection has none, and whenever it changes. */
export const StaticFrame = z.strictObject({
  type: z.literal('static'),
  p: PairId,
  data: RowStaticPart,
})

/** A tick of a compact connection: `d` is [bid, mid, ask, flags, secondsToToggleIsDayTradingClosed, timestampSeconds]. */
export const CompactTickFrame = z.strictObject({
  type: z.literal('t'),
  seq: z.number().int(),
  p: PairId,
  d: z.tuple([z.number(), z.number(), z.number(), z.number().int().min(0).max(3), z.number().int(), z.number().int()]).meta({
    description:
      "The row's changing fields by position: bid, mid, ask, flags (isMarketOpen 1 plus isDayTradingClosed 2), secondsToToggleIsDayTradingClosed, timestampSeconds",
  }),
})
export const CompactTickFrameWithCursor = CompactTickFrame.extend({ cursor: Cursor })

/**
 * `?batch=true` (WebSocket): one window's frames at a fixed rate, at real time the ticks sent together (up to
 * 16 KiB), in one, in the order they would come one by one, each exactly that frame (ticks, compact ticks and
 * static parts, and gaps for real losses).
 */
export const BatchFrame = z.strictObject({
  type: z.literal('batch'),
  frames: z
    .array(
      z.union([TickFrame, TickFrameWithCursor, GapFrame, GapFrameWithCursor, StaticFrame, CompactTickFrame, CompactTickFrameWithCursor]),
    )
    .min(1),
})

/**
 * `?heartbeat=<seconds>`: sent when nothing else was sent for that long; with the cursor of the latest tick sent
 * when the connection carries cursors (and on every event stream).
 */
export const HeartbeatFrame = z.strictObject({
  type: z.literal('heartbeat'),
  time: z.number().int().meta({ description: 'When it was sent, in milliseconds since the epoch' }),
})
export const HeartbeatFrameWithCursor = HeartbeatFrame.extend({ cursor: Cursor })

/** The first frame of a resume (`?from=`, `Last-Event-ID`): with the cursor when recovered, else a snapshot follows. */
export const ResumedFrame = z.strictObject({
  type: z.literal('resumed'),
  recovered: z.boolean(),
  cursor: Cursor.optional(),
})

export const AckFrame = z.strictObject({
  type: z.literal('ack'),
  for: z.enum(['subscribe', 'unsubscribe']),
  /** assets now received: null means all, 0 means none */
  pairCount: z.number().int().nonnegative().nullable(),
})

export const ErrorFrame = z.strictObject({
  type: z.literal('error'),
  code: z.enum(STREAM_ERROR_CODES),
  message: z.string(),
})

export const ServerFrame = z.discriminatedUnion('type', [SnapshotFrame, TickFrame, GapFrame, AckFrame, ErrorFrame])
export type ServerFrame = z.infer<typeof ServerFrame>

export const ClientMessage = z.strictObject({
  type: z.enum(['subscribe', 'unsubscribe']),
  pairs: z.array(z.string()),
})
export type ClientMessage = z.infer<typeof ClientMessage>

// Frames of /v1/candles/stream (and the `data` of its Server-Sent Events): candles as POST /v1/ohlc answers
// them, with their resolution and whether their period is over.

export const StreamCandle = OhlcCandle.extend({
  resolution: z.enum(OHLC_RESOLUTIONS),
  /** true once the candle's period has ended: the candle is final, as POST /v1/ohlc answers it */
  closed: z.boolean(),
})
export type StreamCandle = z.infer<typeof StreamCandle>

export const CandleSnapshotFrame = z.strictObject({
  type: z.literal('snapshot'),
  /** per pair, in pair-id order: its last closed candle, then its forming one, where they exist */
  data: z.array(StreamCandle),
})

export const CandleFrame = z.strictObject({
  type: z.literal('candle'),
  data: StreamCandle,
})

export const CandleServerFrame = z.discriminatedUnion('type', [CandleSnapshotFrame, CandleFrame, GapFrame, HeartbeatFrame])
export type CandleServerFrame = z.infer<typeof CandleServerFrame>
