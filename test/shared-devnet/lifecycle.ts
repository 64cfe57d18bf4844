// The run's shared development chain, started by the test runner (test/run.ts) in a process of its own
// (daemon.ts) that outlives the call, and stopped after the last file that needs it. startSharedDevnet resolves
// when the daemon says the chain is up (a line on its stdout, written after its record), and rejects with the
// cause from its log when the daemon ends first or hangs; either way a failed start leaves nothing running.
import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { mkdir, open, readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { isRunning } from '../support/is-running.ts'
import { nodeArgumentsFor } from '../support/node-script.ts'
import { waitFor } from '../support/wait.ts'
import {
  READY_LINE,
  SHARED_DEVNET_FOLDER,
  SHARED_DEVNET_LOG,
  readSharedDevnetRecord,
  removeSharedDevnetRecord,
  writeSharedDevnetRecord,
} from './record.ts'

const DAEMON = fileURLToPath(new URL('./daemon.ts', import.meta.url))
const ROOT = fileURLToPath(new URL('../..', import.meta.url))
// A hang detector: two chains start in about 2.5 s on an idle machine and 6-9 s while other work keeps both
// cores busy (the slowest seen: anvil alone past 60 s, on a machine loaded 15-30 by an overloaded CI run).
const READY_DEADLINE_MS = 240_000
// the devnet's stop() sends SIGKILL to what has not exited 5 s after SIGTERM
const STOP_DEADLINE_MS = 15_000

/** Starts the chain for the run whose test files are children of `runnerPid` (which is how they recognise the record). */
export async function startSharedDevnet(runnerPid: number): Promise<void> {
  await mkdir(SHARED_DEVNET_FOLDER, { recursive: true })
  const log = await open(SHARED_DEVNET_LOG, 'w')
  const daemon = spawn(process.execPath, [...nodeArgumentsFor(DAEMON), String(runnerPid)], {
    cwd: ROOT,
    // the daemon writes its record only once stdin has ended, so never before this function's "starting" record
    stdio: ['pipe', 'pipe', log.fd],
  })
  await log.close()
  await writeSharedDevnetRecord({ runnerPid, daemonPid: daemon.pid! })
  daemon.stdin!.end()
  try {
    await untilReady(daemon)
  } catch (error) {
    await stopSharedDevnet()
    throw error
  } finally {
    daemon.stdout!.destroy()
    daemon.unref()
  }
}

async function untilReady(daemon: ChildProcess): Promise<void> {
  let timer: NodeJS.Timeout | undefined
  const hung = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`not up within ${READY_DEADLINE_MS / 1000} s (its log: ${SHARED_DEVNET_LOG})`)),
      READY_DEADLINE_MS,
    )
  })
  const ready = new Promise<void>((resolve) => {
    let text = ''
    daemon.stdout!.on('data', (chunk: Buffer) => {
      text += chunk.toString()
      if (text.includes(READY_LINE)) resolve()
    })
  })
  const ended = once(daemon, 'exit').then(async ([code, signal]) => {
    throw new Error(`its process ended (${signal ?? `exit ${code}`}): ${await lastLogLines()}`)
  })
  try {
    await Promise.race([ready, ended, hung])
  } finally {
    clearTimeout(timer)
    ended.catch(() => undefined)
  }
}

/** The end of the daemon's log, where anvil's, alto's or its own failure is. */
async function lastLogLines(): Promise<string> {
  const text = await readFile(SHARED_DEVNET_LOG, 'utf8').catch(() => '')
  return text.trim().split('\n').slice(-3).join(' | ').slice(0, 600) || `nothing in ${SHARED_DEVNET_LOG}`
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
