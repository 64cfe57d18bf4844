// The time each wait of a test took beside its deadline, recorded when TEST_WAIT_FIGURES names a folder: one JSON
// line per wait, in a file per process, for `npm run test:waits` to tell the slowest time seen per wait and its
// margin (a deadline is a hang detector with at least 3 times the slowest time seen). Nothing is recorded without it.
import { appendFileSync, mkdirSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'

export interface WaitFigure {
  /** the test file that waited (or the shared module), relative to the project's root */
  file: string
  what: string
  deadlineMs: number
  elapsedMs: number
  kept: boolean
  /** the documented promise the deadline checks, where it is a bound and not a hang detector */
  bound?: string
}

const ROOT = process.env.TEST_TREE_OF ?? fileURLToPath(new URL('../..', import.meta.url))
const folder = process.env.TEST_WAIT_FIGURES
if (folder) mkdirSync(folder, { recursive: true })
const target = folder && join(folder, `${process.pid}.jsonl`)

/**
 * Where the wait is: the test file on the stack, or else the first module that is not this wait's own (a shared
 * contract or helper), as its TypeScript source's path.
 */
function waitingFile(): string {
  const paths = (new Error().stack ?? '')
    .split('\n')
    .map((line) => /(?:file:\/\/)?(\/[^:)]+\.[jt]s):\d+/.exec(line)?.[1])
    .filter((path): path is string => path !== undefined && !/\/test\/support\/wait(-figures)?\.[jt]s$/.test(path))
  const path = paths.find((candidate) => /\.test\.[jt]s$/.test(candidate)) ?? paths[0]
  if (!path) return '(unknown)'
  return relative(ROOT, path)
    .replace(/^\.tap\/tree\//, '')
    .replace(/\.js$/, '.ts')
}

/** Records one wait, when figures are being kept. */
export function recordWait(what: string, deadlineMs: number, startedAt: number, kept: boolean, bound?: string): void {
  if (!target) return
  const elapsedMs = Math.round(performance.now() - startedAt)
  const figure: WaitFigure = { file: waitingFile(), what, deadlineMs, elapsedMs, kept, ...(bound && { bound }) }
  appendFileSync(target, `${JSON.stringify(figure)}\n`)
}
