import { z } from 'zod'
import type { OhlcResolution } from '../../schemas/ohlc.ts'
import { pairByName } from '../../schemas/pairs.ts'
import { ohlcResolutionOf, UdfResolutionParam } from '../../schemas/udf.ts'
import type { ParsedQuery } from './upgrade-gate.ts'
import { PairList, queryRecord } from './stream-query.ts'

/**
 * The query of `/v1/candles/stream`, one line per parameter, each given once: `pairs` (symbols or legacy
 * spellings) and `resolution` (as `POST /v1/ohlc` and the UDF routes take it, `D` too). Anything else is refused.
 */
const CandleQuery = z.strictObject({
  pairs: PairList,
  resolution: UdfResolutionParam.transform(ohlcResolutionOf),
})

export interface CandleSubscription {
  /** pair ids, each once, in pair-id order */
  pairIds: readonly number[]
  resolution: OhlcResolution
}

export function parseCandleQuery(query: string): ParsedQuery<CandleSubscription> {
  const parsed = CandleQuery.safeParse(queryRecord(query))
  if (!parsed.success) return { ok: false, issues: parsed.error.issues }
  const pairIds = [...new Set(parsed.data.pairs.map((name) => pairByName(name)!.id))].sort((a, b) => a - b)
  return { ok: true, pairIds, resolution: parsed.data.resolution }
}
