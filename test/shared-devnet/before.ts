// Started by tap's `before` script (test/before-run.ts): starts the development chain this run's test files share, in a process of its
// own (daemon.ts) that outlives this script, and returns at once: the chain starts while the first files run,
// and the files that need it wait for it (test/support/shared-devnet.ts).
import { spawn } from 'node:child_process'
import { mkdir, open } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { SHARED_DEVNET_FOLDER, SHARED_DEVNET_LOG, writeSharedDevnetRecord } from './record.ts'

const DAEMON = fileURLToPath(new URL('./daemon.ts', import.meta.url))
const ROOT = fileURLToPath(new URL('../..', import.meta.url))

await mkdir(SHARED_DEVNET_FOLDER, { recursive: true })
const log = await open(SHARED_DEVNET_LOG, 'w')
// tap's process tracking (NODE_OPTIONS) would be loaded into alto's Node processes too and slow their start.
const { NODE_OPTIONS: _tapTracking, ...env } = process.env
// This script's parent is the tap run; the test files are its children too, which is how they recognise the record.
const runnerPid = process.ppid
const daemon = spawn(process.execPath, ['--import', 'tsx', DAEMON, String(runnerPid)], {
  cwd: ROOT,
  env,
  // the daemon writes its record only once stdin has ended, so never before this script's "starting" record
  stdio: ['pipe', 'ignore', log.fd],
})
await writeSharedDevnetRecord({ runnerPid, daemonPid: daemon.pid! })
daemon.stdin!.end()
daemon.unref()
await log.close()
