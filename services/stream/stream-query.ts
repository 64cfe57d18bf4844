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
  if (query === '') return EVERY_PAIR
  const listed = listedPairs(query)
  if (listed) return { ok: true, filter: listed }
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
