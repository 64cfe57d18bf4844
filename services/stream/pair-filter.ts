import { PAIRS } from '../../schemas/pairs.ts'

/** The assets a connection receives: `null` means every asset, otherwise a set of pair ids (possibly empty). */
export type PairFilter = ReadonlySet<number> | null

export const wantsPair = (filter: PairFilter, pairId: number): boolean => filter === null || filter.has(pairId)

/** `pairCount` of an ack: null means all, 0 means none. */
export const pairCountOf = (filter: PairFilter): number | null => (filter === null ? null : filter.size)

const EVERY_PAIR_ID: readonly number[] = PAIRS.map((pair) => pair.id)

/** The pair ids a filter covers, in pair-id order. */
export function pairIdsOf(filter: PairFilter): readonly number[] {
  return filter === null ? EVERY_PAIR_ID : [...filter].sort((a, b) => a - b)
}
