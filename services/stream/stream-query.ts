import { z } from 'zod'
import { pairByName } from '../../schemas/pairs.ts'
import type { PairFilter } from './pair-filter.ts'

const PairList = z
  .string()
  .transform((text) => text.split(','))
  .pipe(
    z.array(
      z.string().refine((name) => pairByName(name) !== undefined, {
        error: (issue) => `"${String(issue.input)}" is not a listed pair symbol`,
      }),
    ),
  )

/**
 * The query of `WS /v1/prices/stream`: `pairs` (comma-separated symbols or legacy spellings) or nothing;
 * anything else is refused. The filter holds pair ids, so two spellings of one asset count once.
 */
const StreamQuery = z.strictObject({ pairs: PairList.optional() })

export type StreamQueryResult = { ok: true; filter: PairFilter } | { ok: false; issues: z.core.$ZodIssue[] }

export function parseStreamQuery(query: string): StreamQueryResult {
  const params = new URLSearchParams(query)
  const input: Record<string, string | string[]> = {}
  for (const key of new Set(params.keys())) {
    const values = params.getAll(key)
    input[key] = values.length === 1 ? values[0]! : values
  }
  const parsed = StreamQuery.safeParse(input)
  if (!parsed.success) return { ok: false, issues: parsed.error.issues }
  const symbols = parsed.data.pairs
  return { ok: true, filter: symbols === undefined ? null : new Set(symbols.map((name) => pairByName(name)!.id)) }
}
