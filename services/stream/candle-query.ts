import { z } from 'zod'
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

/** What a connection receives: its pairs' candles of one resolution (and whatever else its query sets). */
export type CandleSubscription = Omit<z.infer<typeof CandleQuery>, 'pairs'> & {
  /** pair ids, each once, in pair-id order */
  pairIds: readonly number[]
}

export function parseCandleQuery(query: string): ParsedQuery<CandleSubscription> {
  const parsed = CandleQuery.safeParse(queryRecord(query))
  if (!parsed.success) return { ok: false, issues: parsed.error.issues }
  const { pairs, ...options } = parsed.data
  const pairIds = [...new Set(pairs.map((name) => pairByName(name)!.id))].sort((a, b) => a - b)
  return { ok: true, pairIds, ...options }
}
