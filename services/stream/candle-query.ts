import { z } from 'zod'
import { pairByName } from '../../schemas/pairs.ts'
import { ohlcResolutionOf, UdfResolutionParam } from '../../schemas/udf.ts'
import type { ParsedQuery } from './upgrade-gate.ts'
import { HeartbeatSeconds, PairList, queryRecord } from './stream-query.ts'

/**
 * The query of `/v1/candles/stream`, one line per parameter, each given once: `pairs` (symbols or legacy
 * spellings), `resolution` (as `POST /v1/ohlc` and the UDF routes take it, `D` too) and `heartbeat` (seconds of
 * silence after which a `heartbeat` frame is sent, as on the price stream). Anything else is refused.
 */
const CandleQuery = z.strictObject({
  pairs: PairList,
  resolution: UdfResolutionParam.transform(ohlcResolutionOf),
  heartbeat: HeartbeatSeconds.optional(),
})

/** What a connection receives: its pairs' candles of one resolution, and heartbeats if it asked. */
export interface CandleSubscription {
  /** pair ids, each once, in pair-id order */
  pairIds: readonly number[]
  resolution: z.infer<typeof CandleQuery>['resolution']
  /** after this long with nothing sent to it, it gets a `heartbeat` frame */
  heartbeatMs?: number
}

export function parseCandleQuery(query: string): ParsedQuery<CandleSubscription> {
  const parsed = CandleQuery.safeParse(queryRecord(query))
  if (!parsed.success) return { ok: false, issues: parsed.error.issues }
  const { pairs, resolution, heartbeat } = parsed.data
  const pairIds = [...new Set(pairs.map((name) => pairByName(name)!.id))].sort((a, b) => a - b)
  return { ok: true, pairIds, resolution, ...(heartbeat !== undefined && { heartbeatMs: heartbeat * 1000 }) }
}
