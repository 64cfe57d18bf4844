// graph-node's `where` argument: which filter keys an entity has, in the order graph-node lists them
// (`field`, `field_not`, `field_gt`, ..., the text tests, a relation's nested `relation_`, a derived
// field's nested filter, `_change_block`, `and`, `or`), and how a row is tested against them. Tests
// follow the SQL graph-node runs (store/postgres/src/relational_queries.rs): a null field matches only
// an equality (or `_not`) test against null; `_in`/`_not_in` with an empty list match nothing; a list
// field `_contains` every given value (`@>`, case-sensitive even `_nocase`), `_not_contains` none of
// them. Values are coerced by the field's own type, because graph-node accepts a variable of a
// different declared type (`$trader: String!` for a Bytes field), whose value then arrives raw.

import { GraphQLError } from 'graphql'
import { baseTypeOf, ENTITY_BY_NAME, isListField, relationTarget, type EntityName, type EntitySpec, type FieldType } from './entities.ts'

export type FieldValue = string | bigint | boolean | null | readonly string[]
export type Row = Readonly<Record<string, FieldValue>>
export type Where = Readonly<Record<string, unknown>>

type Kind = 'id' | 'string' | 'bytes' | 'bigint' | 'boolean' | 'relation' | 'list'
type Comparison = 'equals' | 'not' | 'gt' | 'lt' | 'gte' | 'lte'
type ListTest = 'in' | 'notIn'
type TextTest = 'contains' | 'startsWith' | 'endsWith'
type TextOperator = { text: TextTest; negated: boolean; noCase: boolean }
type Operator = Comparison | ListTest | TextOperator

const SUFFIXES: Readonly<Record<Comparison | ListTest, string>> = {
  equals: '',
  not: '_not',
  gt: '_gt',
  lt: '_lt',
  gte: '_gte',
  lte: '_lte',
  in: '_in',
  notIn: '_not_in',
}
const TEXT_SUFFIXES: Readonly<Record<TextTest, string>> = { contains: '_contains', startsWith: '_starts_with', endsWith: '_ends_with' }

/** One input field of an entity's `<Entity>_filter`, in graph-node's order. */
export interface FilterInput {
  key: string
  /** the GraphQL input type of its value */
  inputType: string
}

interface FilterKey extends FilterInput {
  field: string
  kind: Kind
  operator: Operator
}

/** A nested filter: the row a relation points to, or (derived) any row pointing back, matches it. */
interface NestedKey {
  field: string
  target: EntityName
  /** for a derived field: the target's relation that holds this row's id */
  backField?: string
}

export interface Lookup {
  /** the stored row of an entity by id */
  row(entity: EntityName, id: string): Row | undefined
  /** every stored row of an entity */
  rows(entity: EntityName): readonly Row[]
  /** the block every row was last changed at (the stand-in keeps no history) */
  changedAtBlock: number
}

function kindOf(fieldType: FieldType): Kind {
  if (relationTarget(fieldType)) return 'relation'
  if (isListField(fieldType)) return 'list'
  const kinds: Record<string, Kind> = { ID: 'id', String: 'string', Bytes: 'bytes', BigInt: 'bigint', Boolean: 'boolean' }
  return kinds[baseTypeOf(fieldType)]!
}

const ORDERED: readonly Operator[] = ['equals', 'not', 'gt', 'lt', 'gte', 'lte', 'in', 'notIn']
const TEXT_TESTS: readonly TextOperator[] = (['contains', 'startsWith', 'endsWith'] as const).flatMap((text) =>
  [false, true].flatMap((negated) => [false, true].map((noCase) => ({ text, negated, noCase }))),
)

function operatorsOf(kind: Kind): readonly Operator[] {
  switch (kind) {
    case 'boolean':
      return ['equals', 'not', 'in', 'notIn']
    case 'id':
    case 'bigint':
      return ORDERED
    case 'bytes':
      return [...ORDERED, { text: 'contains', negated: false, noCase: false }, { text: 'contains', negated: true, noCase: false }]
    case 'list':
      return ['equals', 'not', ...TEXT_TESTS.filter((test) => test.text === 'contains')]
    default:
      return [...ORDERED, ...TEXT_TESTS]
  }
}

function suffixOf(operator: Operator): string {
  if (typeof operator === 'string') return SUFFIXES[operator]
  const base = TEXT_SUFFIXES[operator.text]
  return `${operator.negated ? base.replace(/^_/, '_not_') : base}${operator.noCase ? '_nocase' : ''}`
}

/** A relation is filtered by the id it holds (a String), a list field by a list of strings. */
function inputTypeOf(kind: Kind, fieldType: FieldType, operator: Operator): string {
  if (kind === 'list') return '[String!]'
  const valueType = kind === 'relation' ? 'String' : baseTypeOf(fieldType)
  return operator === 'in' || operator === 'notIn' ? `[${valueType}!]` : valueType
}

const filterCache = new Map<EntityName, { keys: Map<string, FilterKey>; nested: Map<string, NestedKey>; inputs: FilterInput[] }>()

function filterOf(spec: EntitySpec) {
  const cached = filterCache.get(spec.name)
  if (cached) return cached
  const keys = new Map<string, FilterKey>()
  const nested = new Map<string, NestedKey>()
  const inputs: FilterInput[] = []
  for (const [field, fieldType] of Object.entries(spec.fields)) {
    const kind = kindOf(fieldType)
    for (const operator of operatorsOf(kind)) {
      const key: FilterKey = { key: field + suffixOf(operator), field, kind, operator, inputType: inputTypeOf(kind, fieldType, operator) }
      keys.set(key.key, key)
      inputs.push(key)
    }
    const target = relationTarget(fieldType)
    if (target) {
      nested.set(`${field}_`, { field, target })
      inputs.push({ key: `${field}_`, inputType: `${target}_filter` })
    }
  }
  for (const [field, derived] of Object.entries(spec.derived)) {
    nested.set(`${field}_`, { field, target: derived.entity, backField: derived.field })
    inputs.push({ key: `${field}_`, inputType: `${derived.entity}_filter` })
  }
  const built = { keys, nested, inputs }
  filterCache.set(spec.name, built)
  return built
}

/** The input fields of `<Entity>_filter` before `_change_block`, `and` and `or`, in graph-node's order. */
export function filterInputsOf(spec: EntitySpec): readonly FilterInput[] {
  return filterOf(spec).inputs
}

/** Turns a `where` argument into a row test; a value of the wrong type is a GraphQL error. */
export function compileWhere(where: Where, spec: EntitySpec, lookup: Lookup): (row: Row) => boolean {
  const { keys, nested } = filterOf(spec)
  const tests = Object.entries(where).map(([key, expected]): ((row: Row) => boolean) => {
    if (key === 'and' || key === 'or') {
      const parts = ((expected ?? []) as ReadonlyArray<Where | null>).filter((part) => part !== null)
      const partTests = parts.map((part) => compileWhere(part, spec, lookup))
      return key === 'and' ? (row) => partTests.every((test) => test(row)) : (row) => partTests.some((test) => test(row))
    }
    if (key === '_change_block') {
      const since = (expected as { number_gte: number } | null)?.number_gte ?? 0
      return () => lookup.changedAtBlock >= since
    }
    const nestedKey = nested.get(key)
    if (nestedKey) return compileNested(nestedKey, (expected ?? {}) as Where, lookup)
    const filterKey = keys.get(key)
    // GraphQL validation only lets declared keys through.
    if (!filterKey) throw new Error(`no filter key ${key}`)
    return compileKey(filterKey, expected)
  })
  return (row) => tests.every((test) => test(row))
}

function compileNested({ field, target, backField }: NestedKey, where: Where, lookup: Lookup): (row: Row) => boolean {
  const test = compileWhere(where, ENTITY_BY_NAME.get(target)!, lookup)
  if (backField) {
    return (row) => lookup.rows(target).some((child) => child[backField] === row.id && test(child))
  }
  return (row) => {
    const id = row[field]
    const related = typeof id === 'string' ? lookup.row(target, id) : undefined
    return related !== undefined && test(related)
  }
}

function compileKey(filterKey: FilterKey, expected: unknown): (row: Row) => boolean {
  const { field, operator, kind } = filterKey
  if (kind === 'list') return compileListKey(filterKey, expected)
  if (operator === 'in' || operator === 'notIn') {
    const listed = (expected ?? []) as unknown[]
    const candidates = listed.filter((candidate) => candidate !== null).map((candidate) => coerce(filterKey, candidate))
    const withNull = listed.length > candidates.length
    return (row) => isListed(row[field] ?? null, candidates, withNull, operator === 'in')
  }
  const value = expected === null ? null : coerce(filterKey, expected)
  if (typeof operator === 'object') {
    const test = textTest(operator, value as string)
    return (row) => {
      const actual = row[field] ?? null
      return typeof actual === 'string' && test(actual)
    }
  }
  return (row) => compares(operator, row[field] ?? null, value)
}

/** A list field: equal lists, or containing all (`_contains`) or none (`_not_contains`) of the values. */
function compileListKey(filterKey: FilterKey, expected: unknown): (row: Row) => boolean {
  const values = ((expected ?? []) as unknown[]).map((value) => {
    if (typeof value !== 'string') throw invalidValue(filterKey, value, 'String')
    return value
  })
  const of = (row: Row) => (row[filterKey.field] ?? []) as readonly string[]
  const { operator } = filterKey
  if (operator === 'equals' || operator === 'not') {
    const wanted = operator === 'equals'
    return (row) => (of(row).length === values.length && of(row).every((item, index) => item === values[index])) === wanted
  }
  if (typeof operator === 'object' && operator.negated) return (row) => !values.some((value) => of(row).includes(value))
  return (row) => values.every((value) => of(row).includes(value))
}

/** A filter value as the field stores it: Bytes lowercase, BigInt as bigint, ids and strings as text. */
function coerce(filterKey: FilterKey, value: unknown): string | bigint | boolean {
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
    default:
      if (typeof value !== 'string' && typeof value !== 'number') throw invalidValue(filterKey, value, 'String')
      return String(value)
  }
}

function invalidValue(filterKey: FilterKey, value: unknown, typeName: string): GraphQLError {
  return new GraphQLError(`Invalid value provided for filter \`${filterKey.key}\`: ${JSON.stringify(value)} is not a ${typeName}`)
}

function textTest(operator: TextOperator, expected: string): (actual: string) => boolean {
  const fold = (text: string) => (operator.noCase ? text.toLowerCase() : text)
  const needle = fold(expected)
  const found = (actual: string) => {
    const haystack = fold(actual)
    if (operator.text === 'contains') return haystack.includes(needle)
    return operator.text === 'startsWith' ? haystack.startsWith(needle) : haystack.endsWith(needle)
  }
  return (actual) => found(actual) !== operator.negated
}

/**
 * `_in` (wanted listed) or `_not_in`: a null in the list tests the field for null (`is null` / `is not
 * null`), the other values for membership; an empty list matches nothing either way.
 */
function isListed(actual: FieldValue, candidates: ReadonlyArray<string | bigint | boolean>, withNull: boolean, wanted: boolean): boolean {
  const nullTest = withNull && (actual === null) === wanted
  const valueTest =
    candidates.length > 0 && actual !== null && candidates.some((candidate) => compareValues(actual, candidate) === 0) === wanted
  return nullTest || valueTest
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

/** Orders two values of the same field type: numbers by value, strings byte-wise, false before true, lists item by item. */
export function compareValues(a: NonNullable<FieldValue>, b: NonNullable<FieldValue>): number {
  if (isList(a) && isList(b)) {
    for (let index = 0; index < Math.min(a.length, b.length); index++) {
      const order = compareValues(a[index]!, b[index]!)
      if (order !== 0) return order
    }
    return a.length - b.length
  }
  const left = typeof a === 'boolean' ? Number(a) : a
  const right = typeof b === 'boolean' ? Number(b) : b
  return left < right ? -1 : left > right ? 1 : 0
}

function isList(value: NonNullable<FieldValue>): value is readonly string[] {
  return Array.isArray(value)
}
