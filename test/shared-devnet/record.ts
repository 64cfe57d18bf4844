// Where the development chain a test run shares is described: written by lifecycle.ts as the chain starts and by
// daemon.ts once it is up, read by every test file that needs a chain (test/support/shared-devnet.ts), removed
// when it stops.
import { readFile, rename, rm, writeFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import type { DevnetDeployment } from '../../services/venue-contracts/deployment-record.ts'

/** In tap's own folder (gitignored), one per checkout. */
export const SHARED_DEVNET_FOLDER = fileURLToPath(new URL('../../.tap/shared-devnet/', import.meta.url))
const RECORD_FILE = `${SHARED_DEVNET_FOLDER}record.json`
/** what the daemon logs: anvil's and alto's failures are there */
export const SHARED_DEVNET_LOG = `${SHARED_DEVNET_FOLDER}devnet.log`
/** what the daemon writes on its stdout once the chain is up and its record complete */
export const READY_LINE = 'shared devnet ready'

export interface SharedDevnetRecord {
  /** the test run (test/run.ts) whose files the chain serves: its test files are its children */
  runnerPid: number
  /** the process that holds the chain (anvil and alto are its children) */
  daemonPid: number
  /** absent while the chain is starting */
  deployment?: DevnetDeployment
}

export async function writeSharedDevnetRecord(record: SharedDevnetRecord): Promise<void> {
  // written whole, then renamed: a reader never sees half a file
  await writeFile(`${RECORD_FILE}.partial`, JSON.stringify(record))
  await rename(`${RECORD_FILE}.partial`, RECORD_FILE)
}

/** The record, or undefined when no shared chain is running. */
export async function readSharedDevnetRecord(): Promise<SharedDevnetRecord | undefined> {
  const text = await readFile(RECORD_FILE, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined
    throw error
  })
  return text === undefined ? undefined : (JSON.parse(text) as SharedDevnetRecord)
}

export async function removeSharedDevnetRecord(): Promise<void> {
  await rm(RECORD_FILE, { force: true })
}
