// `npm run test:waits -- <folder> ...`: the waits of the runs whose figures were kept (TEST_WAIT_FIGURES=<folder>
// npm test), one line per test file and wait: its deadline, how often it waited, the slowest time seen, and the
// margin, the deadline over the slowest time. A deadline is a hang detector with a margin of at least 3: the lines
// below it come first and are marked, and the command exits 1 while any remains. A wait whose deadline is a
// documented bound (waitFor's `bound`) is listed with it and never marked. `--markdown` prints a table.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parseCommandLine } from '../../kit/command-line.ts'
import type { WaitFigure } from '../support/wait-figures.ts'

const MIN_MARGIN = 3

const command = parseCommandLine({
  usage: 'npm run test:waits -- [--markdown] <folder> ...',
  summary:
    'The waits of the test runs whose figures were kept (folders a run wrote with TEST_WAIT_FIGURES=<folder>):\n' +
    'per test file and wait, its deadline, the slowest time seen and the margin; exits 1 while a margin is below 3.',
  options: { markdown: { type: 'boolean', default: false, description: 'print a Markdown table' } },
  maxPositionals: Infinity,
})
const { values, positionals } = command
if (positionals.length === 0) command.refuse('name at least one folder of wait figures')

interface Wait {
  file: string
  what: string
  deadlineMs: number
  count: number
  slowestMs: number
  missed: number
  bound?: string
}

const waits = new Map<string, Wait>()
for (const folder of positionals) {
  for (const name of readdirSync(folder).filter((entry) => entry.endsWith('.jsonl'))) {
    for (const line of readFileSync(join(folder, name), 'utf8').split('\n')) {
      if (!line) continue
      const figure = JSON.parse(line) as WaitFigure
      const key = `${figure.file}\u0000${figure.what}\u0000${figure.deadlineMs}`
      const wait = waits.get(key) ?? {
        file: figure.file,
        what: figure.what,
        deadlineMs: figure.deadlineMs,
        count: 0,
        slowestMs: 0,
        missed: 0,
        bound: figure.bound,
      }
      wait.count++
      wait.slowestMs = Math.max(wait.slowestMs, figure.elapsedMs)
      if (!figure.kept) wait.missed++
      waits.set(key, wait)
    }
  }
}

const margin = (wait: Wait) => wait.deadlineMs / Math.max(1, wait.slowestMs)
const isShort = (wait: Wait) => wait.bound === undefined && margin(wait) < MIN_MARGIN
const rows = [...waits.values()].sort((a, b) => margin(a) - margin(b) || a.file.localeCompare(b.file))
const short = rows.filter(isShort)
const cells = (wait: Wait) => [
  isShort(wait) ? '!' : '',
  wait.file,
  wait.bound === undefined ? wait.what : `${wait.what} (bound: ${wait.bound})`,
  String(wait.deadlineMs),
  String(wait.count),
  String(wait.slowestMs),
  margin(wait).toFixed(1),
  String(wait.missed),
]
const head = ['', 'file', 'wait', 'deadline ms', 'waits', 'slowest ms', 'margin', 'missed']
if (values.markdown) {
  console.log(`| ${head.join(' | ')} |\n|${head.map(() => ' --- ').join('|')}|`)
  for (const wait of rows) console.log(`| ${cells(wait).join(' | ')} |`)
} else {
  for (const wait of rows) console.log(cells(wait).join('  '))
}
console.log(`${rows.length} waits, ${short.length} with a margin below ${MIN_MARGIN}`)
process.exit(short.length > 0 ? 1 : 0)
