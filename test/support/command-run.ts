// A command run as a user runs it, in a process of its own: its exit code and everything it printed.
import { execFile } from 'node:child_process'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { nodeArgumentsFor } from './node-script.ts'

export const ROOT = fileURLToPath(new URL('../..', import.meta.url))

/** A Node stack trace's frame line ("    at main (file.ts:1:2)"): a command refusing its input prints none. */
export const STACK_FRAME = /^\s+at \S/m

export interface CommandRun {
  /** the exit code; null when the deadline ended it */
  code: number | null
  stdout: string
  stderr: string
}

/** Runs `command args` from the repository's root and resolves once it has exited (or ended at `timeoutMs`). */
export function runCommand(
  command: string,
  args: string[],
  options: { timeoutMs?: number; env?: NodeJS.ProcessEnv } = {},
): Promise<CommandRun> {
  return new Promise((resolve) => {
    execFile(
      command,
      args,
      { cwd: ROOT, timeout: options.timeoutMs ?? 30_000, env: options.env ?? process.env },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : null) : 0
        resolve({ code, stdout, stderr })
      },
    )
  })
}

/** A TypeScript command file (relative to the root) run as its npm script runs it: with tsx, or its compiled sibling in the test tree. */
export const runTypeScript = (file: string, args: string[], options?: { timeoutMs?: number; env?: NodeJS.ProcessEnv }) =>
  runCommand(process.execPath, [...nodeArgumentsFor(join(ROOT, file)), ...args], options)
