// The generated docs sections (every environment variable; the rate-limit budgets) are what the code says,
// and every environment schema a role parses is in the list the table is generated from.
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import t from 'tap'
import { z } from 'zod'
import { envInt, envList, envPort } from '../../kit/env-parsing.ts'
import { ENVIRONMENT_SCHEMAS } from '../../services/environment-schemas.ts'
import {
  configurationRows,
  crossVariableRules,
  fillSection,
  GENERATED_SECTIONS,
  renderBudgetTable,
} from '../../scripts/render-configuration-doc.ts'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))

const productionSources = ['kit', 'bus', 'services', 'standins']
  .flatMap((folder) =>
    readdirSync(join(ROOT, folder), { withFileTypes: true, recursive: true })
      .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
      .map((entry) => relative(ROOT, join(entry.parentPath, entry.name))),
  )
  .filter((file) => !/(^|\/)test\//.test(file))

t.test('every schema handed to parseEnv is in the list the table is generated from', async (t) => {
  const parsed = new Set(
    productionSources.flatMap((file) =>
      [...readFileSync(join(ROOT, file), 'utf8').matchAll(/\bparseEnv\(\s*([A-Za-z_]\w*)/g)].map((match) => match[1]!),
    ),
  )
  parsed.delete('schema') // parseEnv's own signature
  t.ok(parsed.size >= ENVIRONMENT_SCHEMAS.length, `found the parseEnv calls (${[...parsed].join(', ')})`)
  t.same(
    [...parsed].filter((name) => !ENVIRONMENT_SCHEMAS.some((entry) => entry.name === name)),
    [],
    'unlisted schemas: add them to services/environment-schemas.ts and run npm run docs:config',
  )
})

t.test('the committed docs hold exactly what npm run docs:config writes', async (t) => {
  for (const { file, section, render } of GENERATED_SECTIONS) {
    const text = readFileSync(join(ROOT, file), 'utf8')
    t.equal(text, fillSection(text, section, render()), `${file} (${section}) is current: run npm run docs:config`)
  }
})

t.test('each row says the default, the check and the description the schema holds', async (t) => {
  const rows = configurationRows([
    {
      name: 'Sample',
      readBy: 'edge',
      schema: z.object({
        SAMPLE_PORT: envPort(8080).describe('a port'),
        SAMPLE_COUNT: envInt(5).pipe(z.number().int().positive()).describe('a count'),
        SAMPLE_LIST: envList().describe('a list'),
        SAMPLE_MODE: z.enum(['a', 'b']).default('b').describe('a mode'),
        SAMPLE_URL: z.url().describe('a URL'),
      }),
    },
  ])
  t.same(rows, [
    { name: 'SAMPLE_PORT', defaultValue: '`8080`', check: 'a whole number from 0 to 65535', readBy: 'edge', description: 'a port' },
    { name: 'SAMPLE_COUNT', defaultValue: '`5`', check: 'a whole number, above 0', readBy: 'edge', description: 'a count' },
    { name: 'SAMPLE_LIST', defaultValue: '(empty)', check: 'a comma-separated list', readBy: 'edge', description: 'a list' },
    { name: 'SAMPLE_MODE', defaultValue: '`b`', check: 'one of `a`, `b`', readBy: 'edge', description: 'a mode' },
    { name: 'SAMPLE_URL', defaultValue: '(required)', check: 'a URL', readBy: 'edge', description: 'a URL' },
  ])
})

t.test('a variable without a description, or parsed two ways, stops the generator', async (t) => {
  t.throws(
    () => configurationRows([{ name: 'Bare', readBy: 'edge', schema: z.object({ BARE: z.string() }) }]),
    /BARE \(Bare\) has no description/,
  )
  const one = { name: 'One', readBy: 'edge', schema: z.object({ SHARED: envInt(1).describe('x') }) }
  const two = { name: 'Two', readBy: 'relayer', schema: z.object({ SHARED: envInt(2).describe('x') }) }
  t.throws(() => configurationRows([one, two]), /SHARED is parsed differently by edge and relayer/)
})

t.test('rules across variables are listed with the variable they are reported on', async (t) => {
  const schema = z.object({ A: z.string().optional(), B: z.string().optional() }).refine((env) => !(env.A && env.B), {
    message: 'set A or B, not both',
    path: ['B'],
  })
  t.same(crossVariableRules([{ name: 'Pair', readBy: 'edge', schema }]), ['`B`: set A or B, not both'])
})

t.test('the budgets table reads a record or a list of budgets, whatever fields they carry', async (t) => {
  const expected = [
    '| budget | requests | per (seconds) | routes |',
    '| --- | --- | --- | --- |',
    '| `prices` | 100 | 10 | GET /v1/prices, GET /v1/prices/{pair} |',
  ]
  const routes = ['GET /v1/prices', 'GET /v1/prices/{pair}']
  t.equal(renderBudgetTable({ BUDGETS: { prices: { points: 100, windowSeconds: 10, routes } } }), expected.join('\n'))
  t.equal(renderBudgetTable({ limit: 3, BUDGET_TABLE: [{ name: 'prices', points: 100, windowSeconds: 10, routes }] }), expected.join('\n'))
  t.throws(() => renderBudgetTable({ limit: 3 }), /exports no table of budgets/)
})
