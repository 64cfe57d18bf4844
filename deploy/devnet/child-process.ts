import { type ChildProcess, spawn, type SpawnOptions } from 'node:child_process'
import { existsSync } from 'node:fs'
import { delimiter, join } from 'node:path'
import { createInterface } from 'node:readline'
import type { Logger } from 'pino'

export interface StartChildProcessOptions {
  /** Used in logs and error messages, e.g. "anvil 42161". */
  name: string
  command: string
  args: string[]
  /** A line of output (stdout or stderr) that means the process is ready; its first group is the ready value. */
  readyLine: RegExp
  readyTimeoutMs: number
  logger?: Logger
}

export interface RunningChildProcess {
  /** What the first group of `readyLine` matched, e.g. the address the process listens on. */
  readyValue: string
  stop(): Promise<void>
}

const STOP_GRACE_MS = 5_000
const OUTPUT_LINES_KEPT_FOR_ERRORS = 20

const runningChildren = new Set<ChildProcess>()
let exitHookInstalled = false

/**
 * Starts a long-running child process and resolves once it prints `readyLine`. It rejects, after killing the
 * child, if the process exits or stays silent past the deadline. Children are also killed when this process
 * exits; on Linux they get a parent-death signal too, so that not even a SIGKILL of this process leaves
 * them behind.
 */
export function startChildProcess(options: StartChildProcessOptions): Promise<RunningChildProcess> {
  installExitHook()
  const { name, readyLine, readyTimeoutMs, logger } = options
  // In a process group of its own, so a Ctrl-C in the terminal reaches only this process, which then stops
  // the child in order (the parent-death signal still ends it if this process dies).
  const child = spawnWithParentDeathSignal(options.command, options.args, { detached: true })
  runningChildren.add(child)
  let ready = false
  let stopping = false
  const exited = new Promise<void>((resolve) => {
    const onGone = () => {
      runningChildren.delete(child)
      resolve()
    }
    child.once('exit', (code, signal) => {
      if (ready && !stopping) logger?.warn({ process: name, code, signal }, 'child process exited on its own')
      onGone()
    })
    // A process that could not be spawned at all never emits "exit".
    child.once('error', () => {
      if (child.pid === undefined) onGone()
    })
  })
  const stop = () => {
    stopping = true
    return stopChild(child, exited)
  }

  return new Promise<RunningChildProcess>((resolve, reject) => {
    const recentOutput: string[] = []
    let settled = false
    const fail = (reason: string) => {
      if (settled) return
      settled = true
      clearTimeout(deadline)
      const output = recentOutput.join('\n')
      void stop().finally(() => reject(new Error(`${name} ${reason}; its last output:\n${output}`)))
    }
    const deadline = setTimeout(() => fail(`did not become ready within ${readyTimeoutMs} ms`), readyTimeoutMs)

    const onLine = (line: string) => {
      logger?.debug({ process: name }, line)
      recentOutput.push(line)
      if (recentOutput.length > OUTPUT_LINES_KEPT_FOR_ERRORS) recentOutput.shift()
      const match = settled ? null : line.match(readyLine)
      if (match) {
        settled = true
        ready = true
        clearTimeout(deadline)
        resolve({ readyValue: match[1] ?? match[0], stop })
      }
    }
    for (const stream of [child.stdout, child.stderr]) {
      if (stream) createInterface({ input: stream }).on('line', onLine)
    }
    child.once('error', (error) => fail(`could not be started (${error.message})`))
    child.once('exit', (code, signal) => fail(`exited before becoming ready (code ${code}, signal ${signal})`))
  })
}

async function stopChild(child: ChildProcess, exited: Promise<void>): Promise<void> {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return
  child.kill('SIGTERM')
  let graceTimer: NodeJS.Timeout | undefined
  const graceOver = new Promise<'grace over'>((resolve) => {
    graceTimer = setTimeout(() => resolve('grace over'), STOP_GRACE_MS)
  })
  if ((await Promise.race([exited, graceOver])) === 'grace over') {
    child.kill('SIGKILL')
    await exited
  }
  clearTimeout(graceTimer)
}

function installExitHook(): void {
  if (exitHookInstalled) return
  exitHookInstalled = true
  // Only synchronous work is possible here: signal the children and let the kernel do the rest.
  process.on('exit', () => {
    for (const child of runningChildren) child.kill('SIGKILL')
  })
}

const setprivPath = process.platform === 'linux' ? findOnPath('setpriv') : undefined

/**
 * `setpriv --pdeathsig` (util-linux) makes the kernel kill the child when this process dies, however it dies,
 * and then execs the command, so the child keeps its pid and exit status.
 */
function spawnWithParentDeathSignal(command: string, args: string[], options: SpawnOptions = {}): ChildProcess {
  const settings = { stdio: ['ignore', 'pipe', 'pipe'] as ['ignore', 'pipe', 'pipe'], ...options }
  if (setprivPath) return spawn(setprivPath, ['--pdeathsig', 'KILL', '--', command, ...args], settings)
  return spawn(command, args, settings)
}

/**
 * Spawns a child (stdout and stderr piped) that dies with this process, however it dies: for processes
 * that tests and benches start (service roles, nats-server, redis-server).
 */
export function spawnTiedToParent(command: string, args: string[], options: SpawnOptions = {}): ChildProcess {
  installExitHook()
  const child = spawnWithParentDeathSignal(command, args, options)
  runningChildren.add(child)
  child.once('exit', () => runningChildren.delete(child))
  return child
}

function findOnPath(executable: string): string | undefined {
  for (const directory of (process.env.PATH ?? '').split(delimiter)) {
    const candidate = join(directory, executable)
    if (directory && existsSync(candidate)) return candidate
  }
  return undefined
}
