import { z } from 'zod'
import { pairByName } from '../../schemas/pairs.ts'
import { parseCursor, type Cursor } from './cursor.ts'
import type { PairFilter } from './pair-filter.ts'
import { STREAM_RATES, type FixedRate } from './stream-rate.ts'

/** `pairs`: comma-separated symbols or legacy spellings, each listed. */
export const PairList = z
  .string()
  .transform((text) => text.split(','))
  .pipe(
    z.array(
      z.string().refine((name) => pairByName(name) !== undefined, {
        error: (issue) => `"${String(issue.input)}" is not a listed pair symbol`,
      }),
    ),
  )

const CursorParam = z.string().transform((text, context) => {
  const cursor = parseCursor(text)
  if (!cursor) context.addIssue({ code: 'custom', message: "not a cursor: a cursor is a frame's `cursor` (`<epoch>-<position>`)" })
  return cursor ?? z.NEVER
})

/** `heartbeat`: whole seconds from 1 to 60, written plainly (no sign, leading zero, exponent or fraction). */
export const HeartbeatSeconds = z
  .string()
  .regex(/^[1-9][0-9]?$/, { error: 'a whole number of seconds from 1 to 60' })
  .transform(Number)
  .refine((seconds) => seconds <= 60, { error: 'a whole number of seconds from 1 to 60' })

/**
 * The query of `/v1/prices/stream`: `pairs` (comma-separated symbols or legacy spellings) or nothing; `cursor`
 * (`true`: frames carry their cursor) and `from` (a cursor to resume after; frames then carry theirs);
 * `format` (`compact`: ticks without the row's static part, see compact-frames.ts), `replay` (`latest`: a
 * resume sends each pair's latest tick instead of every one), `heartbeat` (seconds of silence after which a
 * `heartbeat` frame is sent), `rate` (services/stream/stream-rate.ts) and `batch` (`true`: each window's frames at a
 * fixed rate, at real time the ticks sent together, in one `batch` frame, over WebSocket; see window-batches.ts); anything else, or any of them
 * twice, is refused. The filter holds pair ids, so two spellings of one asset count once.
 */
const StreamQuery = z.strictObject({
  pairs: PairList.optional(),
  cursor: z.enum(['true', 'false']).optional(),
  from: CursorParam.optional(),
  format: z.enum(['full', 'compact']).optional(),
  replay: z.enum(['all', 'latest']).optional(),
  heartbeat: HeartbeatSeconds.optional(),
  rate: z.string().pipe(z.enum(STREAM_RATES)).optional(),
  batch: z.enum(['true', 'false']).optional(),
})

export type StreamQueryResult = ({ ok: true; filter: PairFilter } & StreamOptIns) | { ok: false; issues: z.core.$ZodIssue[] }

/** What a connection opted into; absent for one that did not (most). */
export interface StreamOptIns {
  /** its frames carry their cursor */
  withCursor?: true
  /** it resumes after this cursor */
  resumeAfter?: Cursor
  /** its ticks are compact frames (`?format=compact`) */
  compact?: true
  /** a resume sends each pair's latest tick after the cursor, with a gap for the ones folded (`?replay=latest`) */
  foldReplay?: true
  /** after this long with nothing sent to it, it gets a `heartbeat` frame */
  heartbeatMs?: number
  /** it receives the latest row per pair once per window of this rate (absent: real_time) */
  rate?: FixedRate
  /** each window's (real time: the ticks sent together) frames come in one `batch` frame (`?batch=true`, WebSocket connections) */
  batched?: true
}

/** How the stream is read: `batch=true` is for WebSocket connections, an event stream's events being one per frame. */
export type StreamTransport = 'websocket' | 'event-stream'

/** The query with the resume point of an EventSource that reconnects (`Last-Event-ID`), unless `from` names one. */
export function resumingQuery(query: string, lastEventId: string | undefined): string {
  if (lastEventId === undefined || lastEventId === '') return query
  const params = new URLSearchParams(query)
  if (!params.has('from')) params.set('from', lastEventId)
  return params.toString()
}

export function parseStreamQuery(query: string, transport: StreamTransport = 'websocket'): StreamQueryResult {
  if (query === '') return EVERY_PAIR
  const listed = listedPairs(query)
  if (listed) return { ok: true, filter: listed }
  const parsed = StreamQuery.safeParse(queryRecord(query))
  if (!parsed.success) return { ok: false, issues: parsed.error.issues }
  const { pairs: symbols, cursor, from, format, replay, heartbeat, rate, batch } = parsed.data
  const batched = batch === 'true'
  if (batched && transport === 'event-stream')
    return batchRefused('batch=true is for WebSocket connections: an event stream sends one event per frame')
  return {
    ok: true,
    filter: symbols === undefined ? null : new Set(symbols.map((name) => pairByName(name)!.id)),
    ...((cursor === 'true' || from !== undefined) && { withCursor: true }),
    ...(from !== undefined && { resumeAfter: from }),
    ...(format === 'compact' && { compact: true }),
    ...(replay === 'latest' && { foldReplay: true }),
    ...(heartbeat !== undefined && { heartbeatMs: heartbeat * 1000 }),
    ...(rate !== undefined && rate !== 'real_time' && { rate }),
    ...(batched && { batched: true }),
  }
}

function batchRefused(message: string): StreamQueryResult {
  return { ok: false, issues: [{ code: 'custom', path: ['batch'], message }] }
}

/** A query string as the schemas read it: a repeated parameter becomes an array, which they refuse. */
export function queryRecord(query: string): Record<string, string | string[]> {
  const params = new URLSearchParams(query)
  const input: Record<string, string | string[]> = {}
  for (const key of new Set(params.keys())) {
    const values = params.getAll(key)
    input[key] = values.length === 1 ? values[0]! : values
  }
  return input
}

const EVERY_PAIR: StreamQueryResult = { ok: true, filter: null }

/**
 * The common query read without the schema, the largest single cost of an upgrade's JavaScript in a
 * reconnect storm's profile: `pairs=` and listed spellings only, with nothing URLSearchParams would decode
 * or split. Anything else, valid or not, is left to the schema (undefined).
 */
function listedPairs(query: string): Set<number> | undefined {
  if (!query.startsWith('pairs=') || /[&%+]/.test(query)) return undefined
  const ids = new Set<number>()
  for (const name of query.slice('pairs='.length).split(',')) {
    const pair = pairByName(name)
    if (!pair) return undefined
    ids.add(pair.id)
  }
  return ids
}
