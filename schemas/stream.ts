import { z } from 'zod'
import { PriceRow } from './price.ts'

// Spec 6: frames of WS /v1/prices/stream.

export const STREAM_ERROR_CODES = ['malformed', 'unknown_type', 'invalid_pairs', 'no_filter', 'rate_limited'] as const
export type StreamErrorCode = (typeof STREAM_ERROR_CODES)[number]

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
