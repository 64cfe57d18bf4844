// The run's shared development chain, started before the test files (test/run.ts) in a process of its own
// (daemon.ts) that outlives the call, and stopped after them. start returns at once: the chain starts while the
// first files run, and the files that need it wait for it (test/support/shared-devnet.ts).
import { spawn } from 'node:child_process'
import { mkdir, open } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { isRunning } from '../support/is-running.ts'
import { nodeArgumentsFor } from '../support/node-script.ts'
import { waitFor } from '../support/wait.ts'
import {
  SHARED_DEVNET_FOLDER,
  SHARED_DEVNET_LOG,
  readSharedDevnetRecord,
  removeSharedDevnetRecord,
  writeSharedDevnetRecord,
} from './record.ts'

const DAEMON = fileURLToPath(new URL('./daemon.ts', import.meta.url))
const ROOT = fileURLToPath(new URL('../..', import.meta.url))
// the devnet's stop() sends SIGKILL to what has not exited 5 s after SIGTERM
const STOP_DEADLINE_MS = 15_000

/** Starts the chain for the run whose test files are children of `runnerPid` (which is how they recognise the record). */
export async function startSharedDevnet(runnerPid: number): Promise<void> {
  await mkdir(SHARED_DEVNET_FOLDER, { recursive: true })
  const log = await open(SHARED_DEVNET_LOG, 'w')
  const daemon = spawn(process.execPath, [...nodeArgumentsFor(DAEMON), String(runnerPid)], {
    cwd: ROOT,
    // the daemon writes its record only once stdin has ended, so never before this function's "starting" record
    stdio: ['pipe', 'ignore', log.fd],
  })
  await writeSharedDevnetRecord({ runnerPid, daemonPid: daemon.pid! })
  daemon.stdin!.end()
  daemon.unref()
  await log.close()
}

/** Stops the chain the run started, if it runs. */
export async function stopSharedDevnet(): Promise<void> {
  const record = await readSharedDevnetRecord()
  if (record && isRunning(record.daemonPid)) {
    process.kill(record.daemonPid, 'SIGTERM')
    // the daemon removes the record once anvil and alto have exited
    await waitFor(async () => !(await readSharedDevnetRecord()) || !isRunning(record.daemonPid), {
      timeoutMs: STOP_DEADLINE_MS,
      intervalMs: 50,
      what: 'the shared devnet to stop',
    })
  }
  await removeSharedDevnetRecord()
}
