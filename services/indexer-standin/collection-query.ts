// A collection query with The Graph's semantics: `where`, then `orderBy`/`orderDirection` (ties broken
// by id, nulls sorting as the largest value as in Postgres), then `skip` and `first`, each bounded the
// way hosted Graph nodes bound them.

import { GraphQLError } from 'graphql'
import { compareValues, compileWhere, type FieldValue, type FilterKey, type Row, type Where } from './filters.ts'

export const DEFAULT_FIRST = 100
export const MAX_FIRST = 1000
export const MAX_SKIP = 5000

export interface CollectionArgs {
  first?: number | null
  skip?: number | null
  orderBy?: string | null
  orderDirection?: 'asc' | 'desc' | null
  where?: Where | null
}

export function queryCollection<R extends Row>(rows: readonly R[], args: CollectionArgs, filterKeys: ReadonlyMap<string, FilterKey>): R[] {
  const first = checkRange('first', args.first ?? DEFAULT_FIRST, MAX_FIRST)
  const skip = checkRange('skip', args.skip ?? 0, MAX_SKIP)
  const matching = args.where ? rows.filter(compileWhere(args.where, filterKeys)) : [...rows]
  matching.sort(rowOrder(args.orderBy ?? 'id', args.orderDirection === 'desc' ? -1 : 1))
  return matching.slice(skip, skip + first)
}

function checkRange(argument: 'first' | 'skip', value: number, max: number): number {
  if (value < 0 || value > max) {
    throw new GraphQLError(`The \`${argument}\` argument must be between 0 and ${max}, but is ${value}`)
  }
  return value
}

function rowOrder(field: string, direction: 1 | -1): (a: Row, b: Row) => number {
  return (a, b) => direction * (compareNullable(a[field] ?? null, b[field] ?? null) || compareNullable(a.id ?? null, b.id ?? null))
}

function compareNullable(a: FieldValue, b: FieldValue): number {
  if (a === null || b === null) return a === b ? 0 : a === null ? 1 : -1
  return compareValues(a, b)
}
