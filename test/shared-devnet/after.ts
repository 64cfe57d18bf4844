// tap's `after` script (.taprc): stops the development chain before.ts started for this run.
import { isRunning } from '../support/is-running.ts'
import { waitFor } from '../support/wait.ts'
import { readSharedDevnetRecord, removeSharedDevnetRecord } from './record.ts'

// the devnet's stop() sends SIGKILL to what has not exited 5 s after SIGTERM
const STOP_DEADLINE_MS = 15_000

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
