// Renders the generated sections of the docs from the code that holds their figures: the table of every
// environment variable from the zod schemas (services/environment-schemas.ts) and the table of rate-limit
// budgets from services/http/budgets.ts. `npm run docs:config` writes them between their markers;
// test/architecture/configuration-table.test.ts fails when the committed docs differ.
import { z } from 'zod'
import { ENVIRONMENT_SCHEMAS, type EnvironmentSchema } from '../services/environment-schemas.ts'
import * as budgets from '../services/http/budgets.ts'

export interface VariableRow {
  name: string
  defaultValue: string
  check: string
  readBy: string
  description: string
}

/** The parts of zod's internal definitions the table reads (zod 4's `_zod.def`). */
interface Node {
  _zod: { def: NodeDef }
}
interface NodeDef {
  type: string
  format?: string
  protocol?: RegExp
  checks?: Check[]
  innerType?: Node
  in?: Node
  out?: Node
  element?: Node
  entries?: Record<string, string | number>
  shape?: Record<string, Node>
}
interface Check {
  _zod: { def: CheckDef }
}
interface CheckDef {
  check: string
  error?: () => unknown
  path?: PropertyKey[]
  minimum?: number
  maximum?: number
  value?: number
  inclusive?: boolean
  format?: string
  pattern?: RegExp
}

const nodeOf = (schema: z.ZodType) => schema as unknown as Node

/** Every variable of every registered schema, in list order; a variable in several schemas is one row. */
export function configurationRows(schemas: readonly EnvironmentSchema[] = ENVIRONMENT_SCHEMAS): VariableRow[] {
  const rows = new Map<string, VariableRow>()
  for (const entry of schemas) {
    for (const [variable, field] of Object.entries(objectOf(nodeOf(entry.schema)).shape)) {
      const name = entry.documentedName?.(variable) ?? variable
      const description = (field as unknown as z.ZodType).description
      if (!description) throw new Error(`${name} (${entry.name}) has no description: add .describe('what it does')`)
      const row = { name, defaultValue: defaultOf(field), check: checkOf(field), readBy: entry.readBy, description }
      const seen = rows.get(name)
      if (!seen) rows.set(name, row)
      else if (seen.defaultValue !== row.defaultValue || seen.check !== row.check)
        throw new Error(`${name} is parsed differently by ${seen.readBy} and ${entry.readBy}`)
      else seen.readBy = `${seen.readBy}; ${entry.readBy}`
    }
  }
  return [...rows.values()]
}

/** Rules a schema checks across its variables (object-level refinements), as `VARIABLE: message`. */
export function crossVariableRules(schemas: readonly EnvironmentSchema[] = ENVIRONMENT_SCHEMAS): string[] {
  return schemas.flatMap((entry) =>
    wrappersOf(nodeOf(entry.schema)).flatMap((node) =>
      (node._zod.def.checks ?? []).flatMap((check) => {
        const message = messageOf(check._zod.def)
        if (!message) return []
        const path = check._zod.def.path?.map(String) ?? []
        const subject = path.map((variable) => `\`${entry.documentedName?.(variable) ?? variable}\``).join(', ')
        return [subject ? `${subject}: ${message}` : message]
      }),
    ),
  )
}

export function renderConfigurationTable(): string {
  const escape = (text: string) => text.replaceAll('|', '\\|')
  const lines = [
    '| variable | default | check | read by | what it does |',
    '| --- | --- | --- | --- | --- |',
    ...configurationRows().map(
      (row) => `| \`${row.name}\` | ${escape(row.defaultValue)} | ${escape(row.check)} | ${row.readBy} | ${escape(row.description)} |`,
    ),
    '',
    'Checked across variables:',
    '',
    ...crossVariableRules().map((rule) => `- ${escape(rule)}`),
  ]
  return lines.join('\n')
}

/**
 * The rate-limit budgets as budgets.ts exports them. Read loosely (the first export that is a record or a
 * list of budget objects; a list names each by its `name`; any other field becomes a column), so a change of
 * that file's shape changes the table, not this code.
 */
export function renderBudgetTable(budgetsModule: object = budgets): string {
  const isBudget = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null
  const exported: unknown[] = Object.values(budgetsModule)
  const table = exported.find(
    (value): value is Record<string, unknown> | unknown[] =>
      isBudget(value) && Object.values(value).length > 0 && Object.values(value).every(isBudget),
  )
  if (!table) throw new Error('services/http/budgets.ts exports no table of budgets')
  const named: [string, Record<string, unknown>][] = Array.isArray(table)
    ? table.filter(isBudget).map(({ name, ...budget }, index) => [text(name ?? index), budget])
    : Object.entries(table).filter((entry): entry is [string, Record<string, unknown>] => isBudget(entry[1]))
  const headings: Record<string, string> = { points: 'requests', windowSeconds: 'per (seconds)' }
  const fields = [...new Set(named.flatMap(([, budget]) => Object.keys(budget)))]
  const cell = (value: unknown) => text(value).replaceAll('|', '\\|')
  return [
    `| budget | ${fields.map((field) => headings[field] ?? field).join(' | ')} |`,
    `| --- | ${fields.map(() => '---').join(' | ')} |`,
    ...named.map(([name, budget]) => `| \`${name}\` | ${fields.map((field) => cell(budget[field])).join(' | ')} |`),
  ].join('\n')
}

function text(value: unknown): string {
  if (value === undefined) return ''
  if (Array.isArray(value)) return value.map(text).join(', ')
  return typeof value === 'string' ? value : JSON.stringify(value)
}

/** Generated sections, by the docs file they are written into and their marker's name. */
export const GENERATED_SECTIONS = [
  { file: 'docs/configuration.md', section: 'configuration-table', render: renderConfigurationTable },
  { file: 'docs/http-behaviour.md', section: 'rate-limit-budgets', render: () => renderBudgetTable() },
] as const

const begin = (section: string) => `<!-- ${section}: generated by npm run docs:config, do not edit -->`
const end = (section: string) => `<!-- end of ${section} -->`

/** The text with the section between its markers replaced; throws when the markers are missing. */
export function fillSection(text: string, section: string, content: string): string {
  const start = text.indexOf(begin(section))
  const stop = text.indexOf(end(section))
  if (start === -1 || stop < start) throw new Error(`markers of ${section} not found: ${begin(section)} ... ${end(section)}`)
  return `${text.slice(0, start)}${begin(section)}\n\n${content}\n\n${text.slice(stop)}`
}

function objectOf(node: Node): Required<Pick<NodeDef, 'shape'>> {
  const object = wrappersOf(node).find((wrapper) => wrapper._zod.def.type === 'object')
  if (!object?._zod.def.shape) throw new Error('an environment schema must be a z.object, possibly refined or transformed')
  return { shape: object._zod.def.shape }
}

/** The schema and the schemas it wraps on its input side (pipes' inputs), outermost first. */
function wrappersOf(node: Node): Node[] {
  const input = node._zod.def.in
  return input ? [node, ...wrappersOf(input)] : [node]
}

function defaultOf(field: Node): string {
  const result = (field as unknown as z.ZodType).safeParse(undefined)
  if (!result.success) return '(required)'
  const value: unknown = result.data
  if (value === undefined) return '(unset)'
  if (Array.isArray(value)) return value.length === 0 ? '(empty)' : `\`${value.join(',')}\``
  if (value === '') return '(empty)'
  return `\`${typeof value === 'string' ? value : JSON.stringify(value)}\``
}

/** What a value must be, in words, from the schema's checks; fragments a later one repeats are dropped. */
function checkOf(field: Node): string {
  const fragments = [...new Set(fragmentsOf(field))]
  const kept = fragments.filter((fragment) => !fragments.some((other) => other !== fragment && other.startsWith(fragment)))
  return kept.length > 0 ? kept.join(', ') : 'any text'
}

function fragmentsOf(node: Node): string[] {
  const def = node._zod.def
  const meta = z.globalRegistry.get(node as unknown as z.ZodType) as { check?: string } | undefined
  const own = [
    ...(meta?.check ? [meta.check] : []),
    ...(def.type === 'string' && def.format === 'url'
      ? [def.protocol ? `a URL whose protocol matches \`${def.protocol.source}\`` : 'a URL']
      : []),
    ...(def.type === 'enum' && def.entries
      ? [
          `one of ${Object.values(def.entries)
            .map((entry) => `\`${entry}\``)
            .join(', ')}`,
        ]
      : []),
    ...(def.checks ?? []).flatMap((check) => describeCheck(check._zod.def, def.type)),
  ]
  const inner = [def.innerType, def.in, def.out].flatMap((child) => (child ? fragmentsOf(child) : []))
  const element = def.element ? fragmentsOf(def.element).map((fragment) => `each ${fragment}`) : []
  return [...inner, ...own, ...element]
}

function describeCheck(check: CheckDef, type: string): string[] {
  const message = messageOf(check)
  if (message) return [message]
  const unit = type === 'array' ? 'entries' : 'characters'
  switch (check.check) {
    case 'min_length':
      return [check.minimum === 1 ? 'not empty' : `at least ${check.minimum} ${unit}`]
    case 'max_length':
      return [`at most ${check.maximum} ${unit}`]
    case 'greater_than':
      return [check.inclusive ? `at least ${check.value}` : `above ${check.value}`]
    case 'less_than':
      return [check.inclusive ? `at most ${check.value}` : `below ${check.value}`]
    case 'number_format':
      return ['a whole number']
    case 'string_format':
      return check.format === 'regex' && check.pattern ? [`matching \`${check.pattern.source}\``] : [check.format ?? 'formatted']
    default:
      return []
  }
}

/** A check's own message (refine's, regex's), without the "must be" every message starts with. */
function messageOf(check: CheckDef): string | undefined {
  let message: unknown
  try {
    message = check.error?.()
  } catch {
    return undefined // a message built from the failing input: there is none here
  }
  return typeof message === 'string' ? message.replace(/^must be /, '') : undefined
}
