// The load test as a user runs it: the package bin in its own process.
import { execFile } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import type { LoadResult } from '../load-result.ts'

const BIN = fileURLToPath(new URL('../bin.js', import.meta.url))

/** Runs `venue-loadtest <args> --workers 1`; resolves with its output, rejects with its exit code and stderr. */
export async function runLoadtest(args: string[]): Promise<string> {
  const { stdout } = await promisify(execFile)(process.execPath, [BIN, ...args, '--workers', '1'], { timeout: 120_000 })
  return stdout
}

/** Resolves with the exit code and stderr of a run that must fail. */
export const failedRun = (args: string[]) =>
  runLoadtest(args).then(
    () => undefined,
    (error: { code: number; stderr: string }) => error,
  )

export const readResult = (out: string) => JSON.parse(readFileSync(`${out}.json`, 'utf8')) as LoadResult
