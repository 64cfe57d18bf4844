// The Graph's `where` argument: which filter keys an entity has (`field`, `field_not`, `field_gt`, ...,
// `and`, `or`) and how a row is tested against them. Comparisons follow the SQL the real source runs:
// a null field matches only an equality (or `_not`) test against null.

import { baseTypeOf, relationTarget, type EntitySpec } from './entities.ts'

export type FieldValue = string | bigint | boolean | null
export type Row = Readonly<Record<string, FieldValue>>
export type Where = Readonly<Record<string, unknown>>

type Operator = 'equals' | 'not' | 'gt' | 'gte' | 'lt' | 'lte' | 'in' | 'notIn'

const SUFFIXES: Readonly<Record<Operator, string>> = {
  equals: '',
  not: '_not',
  gt: '_gt',
  gte: '_gte',
  lt: '_lt',
  lte: '_lte',
  in: '_in',
  notIn: '_not_in',
}
const ALL_OPERATORS = Object.keys(SUFFIXES) as Operator[]
const BOOLEAN_OPERATORS: readonly Operator[] = ['equals', 'not', 'in', 'notIn']

export interface FilterKey {
  key: string
  field: string
  operator: Operator
  /** GraphQL input type of the key's value */
  inputType: string
}

export function filterKeysOf(spec: EntitySpec): FilterKey[] {
  return Object.entries(spec.fields).flatMap(([field, fieldType]) => {
    // A relation is filtered by the id it holds, typed String as on the real source.
    const valueType = relationTarget(fieldType) ? 'String' : baseTypeOf(fieldType)
    const operators = valueType === 'Boolean' ? BOOLEAN_OPERATORS : ALL_OPERATORS
    return operators.map((operator) => ({
      key: field + SUFFIXES[operator],
      field,
      operator,
      inputType: operator === 'in' || operator === 'notIn' ? `[${valueType}!]` : valueType,
    }))
  })
}

/** Turns a `where` argument, already coerced by GraphQL (Bytes lowercased, BigInt as bigint), into a test. */
export function compileWhere(where: Where, keys: ReadonlyMap<string, FilterKey>): (row: Row) => boolean {
  const tests = Object.entries(where).map(([key, expected]): ((row: Row) => boolean) => {
    if (key === 'and' || key === 'or') {
      const parts = ((expected ?? []) as ReadonlyArray<Where | null>).filter((part) => part !== null)
      const partTests = parts.map((part) => compileWhere(part, keys))
      return key === 'and' ? (row) => partTests.every((test) => test(row)) : (row) => partTests.some((test) => test(row))
    }
    const filterKey = keys.get(key)
    // GraphQL validation only lets declared keys through.
    if (!filterKey) throw new Error(`no filter key ${key}`)
    const { field, operator } = filterKey
    if (operator === 'in' || operator === 'notIn') {
      const candidates = ((expected ?? []) as FieldValue[]).filter((candidate) => candidate !== null)
      return (row) => isListed(row[field] ?? null, candidates, operator === 'in')
    }
    return (row) => compares(operator, row[field] ?? null, expected as FieldValue)
  })
  return (row) => tests.every((test) => test(row))
}

/** `_in` (wanted listed) or `_not_in`; a null field is in neither. */
function isListed(actual: FieldValue, candidates: ReadonlyArray<NonNullable<FieldValue>>, wanted: boolean): boolean {
  return actual !== null && candidates.some((candidate) => compareValues(actual, candidate) === 0) === wanted
}

function compares(operator: Exclude<Operator, 'in' | 'notIn'>, actual: FieldValue, expected: FieldValue): boolean {
  if (expected === null) {
    if (operator === 'equals') return actual === null
    if (operator === 'not') return actual !== null
    return false
  }
  if (actual === null) return false
  const order = compareValues(actual, expected)
  switch (operator) {
    case 'equals':
      return order === 0
    case 'not':
      return order !== 0
    case 'gt':
      return order > 0
    case 'gte':
      return order >= 0
    case 'lt':
      return order < 0
    case 'lte':
      return order <= 0
  }
}

/** Orders two values of the same field type: numbers by value, strings byte-wise, false before true. */
export function compareValues(a: NonNullable<FieldValue>, b: NonNullable<FieldValue>): number {
  const left = typeof a === 'boolean' ? Number(a) : a
  const right = typeof b === 'boolean' ? Number(b) : b
  return left < right ? -1 : left > right ? 1 : 0
}
