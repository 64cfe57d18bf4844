// graph-node's `where` argument: which filter keys an entity has (`field`, `field_not`, `field_gt`, ...,
// `field_contains`, nested `relation_: {...}`, `and`, `or`) and how a row is tested against them.
// Comparisons follow the SQL graph-node runs: a null field matches only an equality (or `_not`) test
// against null. Values are coerced here by the field's own type, because graph-node accepts a variable
// of a different declared type (`$trader: String!` for a Bytes field), whose value then arrives raw.

import { GraphQLError } from 'graphql'
import { baseTypeOf, ENTITY_BY_NAME, ENUMS, enumOf, relationTarget, type EntityName, type EntitySpec, type FieldType } from './entities.ts'

export type FieldValue = string | bigint | boolean | null
export type Row = Readonly<Record<string, FieldValue>>
export type Where = Readonly<Record<string, unknown>>

type Kind = 'id' | 'string' | 'bytes' | 'bigint' | 'boolean' | 'enum' | 'relation'
type Comparison = 'equals' | 'not' | 'gt' | 'gte' | 'lt' | 'lte'
type ListTest = 'in' | 'notIn'
type TextTest = 'contains' | 'startsWith' | 'endsWith'
type Operator = Comparison | ListTest | { text: TextTest; negated: boolean; noCase: boolean }

const COMPARISONS: Readonly<Record<Comparison, string>> = {
  equals: '',
  not: '_not',
  gt: '_gt',
  gte: '_gte',
  lt: '_lt',
  lte: '_lte',
}
const TEXT_SUFFIXES: Readonly<Record<TextTest, string>> = { contains: '_contains', startsWith: '_starts_with', endsWith: '_ends_with' }

export interface FilterKey {
  key: string
  field: string
  kind: Kind
  operator: Operator
  /** GraphQL input type of the key's value */
  inputType: string
  enumName?: keyof typeof ENUMS
}

/** A nested filter on a relation (`pair_: { from: "BTC" }`) tests the related row. */
export interface NestedKey {
  key: string
  field: string
  target: EntityName
}

export interface Lookup {
  /** the stored row of an entity by id */
  row(entity: EntityName, id: string): Row | undefined
}

function kindOf(fieldType: FieldType): Kind {
  if (relationTarget(fieldType)) return 'relation'
  if (enumOf(fieldType)) return 'enum'
  const kinds: Record<string, Kind> = { ID: 'id', String: 'string', Bytes: 'bytes', BigInt: 'bigint', Boolean: 'boolean' }
  return kinds[baseTypeOf(fieldType)]!
}

function operatorsOf(kind: Kind): Operator[] {
  const equality: Operator[] = ['equals', 'not', 'in', 'notIn']
  if (kind === 'boolean' || kind === 'enum') return equality
  const ordered: Operator[] = [...equality, 'gt', 'gte', 'lt', 'lte']
  if (kind === 'id' || kind === 'bigint') return ordered
  const texts: TextTest[] = ['contains', 'startsWith', 'endsWith']
  if (kind === 'bytes')
    return [...ordered, { text: 'contains', negated: false, noCase: false }, { text: 'contains', negated: true, noCase: false }]
  return [
    ...ordered,
    ...texts.flatMap((text) => [false, true].flatMap((negated) => [false, true].map((noCase) => ({ text, negated, noCase })))),
  ]
}

function suffixOf(operator: Operator): string {
  if (operator === 'in') return '_in'
  if (operator === 'notIn') return '_not_in'
  if (typeof operator === 'string') return COMPARISONS[operator]
  const base = TEXT_SUFFIXES[operator.text]
  return `${operator.negated ? base.replace(/^_/, '_not_') : base}${operator.noCase ? '_nocase' : ''}`
}

function valueTypeOf(kind: Kind, fieldType: FieldType): string {
  // An enum field is filtered by its enum, as graph-node types it (`field_enum_filter_input_values`,
  // `graph/src/schema/api.rs`); the schema lets it take a string too (`schema.ts`). Relations are
  // filtered by the id they hold.
  if (kind === 'relation') return 'String'
  return baseTypeOf(fieldType)
}

const keyCache = new Map<EntityName, FilterKey[]>()

export function filterKeysOf(spec: EntitySpec): FilterKey[] {
  const cached = keyCache.get(spec.name)
  if (cached) return cached
  const keys = Object.entries(spec.fields).flatMap(([field, fieldType]) => {
    const kind = kindOf(fieldType)
    const valueType = valueTypeOf(kind, fieldType)
    return operatorsOf(kind).map((operator) => ({
      key: field + suffixOf(operator),
      field,
      kind,
      operator,
      inputType: operator === 'in' || operator === 'notIn' ? `[${valueType}!]` : valueType,
      enumName: enumOf(fieldType),
    }))
  })
  keyCache.set(spec.name, keys)
  return keys
}

export function nestedKeysOf(spec: EntitySpec): NestedKey[] {
  return Object.entries(spec.fields).flatMap(([field, fieldType]) => {
    const target = relationTarget(fieldType)
    return target ? [{ key: `${field}_`, field, target }] : []
  })
}

/** Turns a `where` argument into a row test; a value of the wrong type is a GraphQL error. */
export function compileWhere(where: Where, spec: EntitySpec, lookup: Lookup): (row: Row) => boolean {
  const keys = new Map(filterKeysOf(spec).map((filterKey) => [filterKey.key, filterKey]))
  const nested = new Map(nestedKeysOf(spec).map((nestedKey) => [nestedKey.key, nestedKey]))
  const tests = Object.entries(where).map(([key, expected]): ((row: Row) => boolean) => {
    if (key === 'and' || key === 'or') {
      const parts = ((expected ?? []) as ReadonlyArray<Where | null>).filter((part) => part !== null)
      const partTests = parts.map((part) => compileWhere(part, spec, lookup))
      return key === 'and' ? (row) => partTests.every((test) => test(row)) : (row) => partTests.some((test) => test(row))
    }
    const nestedKey = nested.get(key)
    if (nestedKey) {
      const target = ENTITY_BY_NAME.get(nestedKey.target)!
      const test = compileWhere((expected ?? {}) as Where, target, lookup)
      return (row) => {
        const id = row[nestedKey.field]
        const related = typeof id === 'string' ? lookup.row(nestedKey.target, id) : undefined
        return related !== undefined && test(related)
      }
    }
    const filterKey = keys.get(key)
    // GraphQL validation only lets declared keys through.
    if (!filterKey) throw new Error(`no filter key ${key}`)
    return compileKey(filterKey, expected)
  })
  return (row) => tests.every((test) => test(row))
}

function compileKey(filterKey: FilterKey, expected: unknown): (row: Row) => boolean {
  const { field, operator } = filterKey
  if (operator === 'in' || operator === 'notIn') {
    const candidates = ((expected ?? []) as unknown[])
      .filter((candidate) => candidate !== null)
      .map((candidate) => coerce(filterKey, candidate))
    return (row) => isListed(row[field] ?? null, candidates, operator === 'in')
  }
  const value = expected === null ? null : coerce(filterKey, expected)
  if (typeof operator === 'object') {
    const test = textTest(operator, value)
    return (row) => {
      const actual = row[field] ?? null
      return typeof actual === 'string' && test(actual)
    }
  }
  return (row) => compares(operator, row[field] ?? null, value)
}

/** A filter value as the field stores it: Bytes lowercase, BigInt as bigint, ids and strings as text. */
function coerce(filterKey: FilterKey, value: unknown): NonNullable<FieldValue> {
  switch (filterKey.kind) {
    case 'bytes':
      if (typeof value !== 'string' || !/^0x(?:[0-9a-fA-F]{2})*$/.test(value)) throw invalidValue(filterKey, value, 'Bytes')
      return value.toLowerCase()
    case 'bigint':
      if (typeof value === 'bigint') return value
      if ((typeof value === 'string' && /^-?\d+$/.test(value)) || (typeof value === 'number' && Number.isInteger(value)))
        return BigInt(value)
      throw invalidValue(filterKey, value, 'BigInt')
    case 'boolean':
      if (typeof value !== 'boolean') throw invalidValue(filterKey, value, 'Boolean')
      return value
    case 'enum': {
      const values: readonly string[] = ENUMS[filterKey.enumName!]
      if (typeof value !== 'string' || !values.includes(value)) throw invalidValue(filterKey, value, filterKey.enumName!)
      return value
    }
    default:
      if (typeof value !== 'string' && typeof value !== 'number') throw invalidValue(filterKey, value, 'String')
      return String(value)
  }
}

function invalidValue(filterKey: FilterKey, value: unknown, typeName: string): GraphQLError {
  return new GraphQLError(`Invalid value provided for filter \`${filterKey.key}\`: ${JSON.stringify(value)} is not a ${typeName}`)
}

function textTest(operator: Extract<Operator, object>, expected: FieldValue): (actual: string) => boolean {
  const fold = (text: string) => (operator.noCase ? text.toLowerCase() : text)
  const needle = fold(String(expected))
  const found = (actual: string) => {
    const haystack = fold(actual)
    if (operator.text === 'contains') return haystack.includes(needle)
    return operator.text === 'startsWith' ? haystack.startsWith(needle) : haystack.endsWith(needle)
  }
  return (actual) => found(actual) !== operator.negated
}

/** `_in` (wanted listed) or `_not_in`; a null field is in neither. */
function isListed(actual: FieldValue, candidates: ReadonlyArray<NonNullable<FieldValue>>, wanted: boolean): boolean {
  return actual !== null && candidates.some((candidate) => compareValues(actual, candidate) === 0) === wanted
}

function compares(operator: Comparison, actual: FieldValue, expected: FieldValue): boolean {
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
