// The load test as a user runs it: the package bin in its own process.
import { execFile } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import type { Test } from 'tap'
import { startMarketDataService } from '../../test/support/service-process.ts'
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

/** The service a load test runs against: ingestor and edge with the simulated feed (100 ticks/s), once it has prices. */
export async function startTargetService(t: Test, env: Record<string, string> = {}): Promise<{ port: number; target: string }> {
  const { port, base } = await startMarketDataService(t, { SIM_TICKS_PER_SECOND: '100', ...env })
  return { port, target: base }
}
