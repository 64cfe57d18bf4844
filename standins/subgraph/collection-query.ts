// A collection query with graph-node's semantics: `where`, then `orderBy`/`orderDirection` (ties broken
// by id, nulls sorting as the largest value as in Postgres; `pair__from` orders by a related row's
// field), then `skip` and `first`, each bounded the way hosted Graph nodes bound them.

import { GraphQLError } from 'graphql'
import { ENTITY_BY_NAME, relationTarget, type EntitySpec } from './entities.ts'
import { compareValues, compileWhere, type FieldValue, type Lookup, type Row, type Where } from './filters.ts'

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

export function queryCollection<R extends Row>(rows: readonly R[], spec: EntitySpec, args: CollectionArgs, lookup: Lookup): R[] {
  const first = checkRange('first', args.first ?? DEFAULT_FIRST, MAX_FIRST)
  const skip = checkRange('skip', args.skip ?? 0, MAX_SKIP)
  const matching = args.where ? rows.filter(compileWhere(args.where, spec, lookup)) : [...rows]
  matching.sort(rowOrder(sortKey(spec, args.orderBy ?? 'id', lookup), args.orderDirection === 'desc' ? -1 : 1))
  return matching.slice(skip, skip + first)
}

function checkRange(argument: 'first' | 'skip', value: number, max: number): number {
  if (value < 0 || value > max) {
    throw new GraphQLError(`The \`${argument}\` argument must be between 0 and ${max}, but is ${value}`)
  }
  return value
}

/** The value a row sorts by: its own field, or `relation__field` of the row the relation points to. */
function sortKey(spec: EntitySpec, orderBy: string, lookup: Lookup): (row: Row) => FieldValue {
  const [relation, childField] = orderBy.split('__')
  const target = childField === undefined ? undefined : relationTarget(spec.fields[relation!]!)
  if (!target || !ENTITY_BY_NAME.has(target)) return (row) => row[orderBy] ?? null
  return (row) => {
    const id = row[relation!]
    return typeof id === 'string' ? (lookup.row(target, id)?.[childField!] ?? null) : null
  }
}

function rowOrder(key: (row: Row) => FieldValue, direction: 1 | -1): (a: Row, b: Row) => number {
  return (a, b) => direction * (compareNullable(key(a), key(b)) || compareNullable(a.id ?? null, b.id ?? null))
}

function compareNullable(a: FieldValue, b: FieldValue): number {
  if (a === null || b === null) return a === b ? 0 : a === null ? 1 : -1
  return compareValues(a, b)
}
