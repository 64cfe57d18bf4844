import type { ChildProcess } from 'node:child_process'
import type { Test } from 'tap'
import { spawnTiedToParent } from '../../deploy/devnet/child-process.ts'
import { fileURLToPath } from 'node:url'
import { START_DEADLINE_MS, withDeadline } from './wait.ts'

// the entry point `npm start` runs (development chains when onboarding has none configured)
const MAIN = fileURLToPath(new URL('../../scripts/start.ts', import.meta.url))
const ROOT = fileURLToPath(new URL('../..', import.meta.url))

export interface ServiceProcess {
  child: ChildProcess
  /** every log line so far */
  logs: string[]
  /** resolves with the first log record whose msg matches */
  waitForLog(msg: string, timeoutMs?: number): Promise<Record<string, unknown>>
  /** the exit code once it has exited (null when killed by a signal) */
  exited: Promise<number | null>
  /** SIGTERM, and the exit code once it has exited */
  stop(): Promise<number | null>
}

/**
 * A starter of service processes on settings they share (each call adds its own on top); every process it
 * started is stopped when the test ends.
 */
export function serviceProcessStarter(
  t: Test,
  shared: Record<string, string>,
): (roles: string[], env?: Record<string, string>) => ServiceProcess {
  const started: ServiceProcess[] = []
  t.teardown(() => Promise.all(started.map((service) => service.stop())))
  return (roles, env = {}) => {
    const service = startServiceProcess(roles, { ...shared, ...env })
    started.push(service)
    return service
  }
}

/** Runs the service as users do (`tsx services/main.ts [roles]`) with the given environment. */
export function startServiceProcess(
  roles: string[],
  env: Record<string, string>,
  /** another launcher, e.g. taskset pinning the process to one CPU in a bench */
  launcher: { command: string; args: string[] } = { command: process.execPath, args: [] },
  /** another entry, e.g. the compiled `dist/services/main.js` run by plain node from its own directory */
  entry: { args: string[]; cwd: string } = { args: ['--import', 'tsx', MAIN], cwd: ROOT },
): ServiceProcess {
  const child = spawnTiedToParent(launcher.command, [...launcher.args, ...entry.args, ...roles], {
    cwd: entry.cwd,
    // the ops listener on a free port unless the test names one (OPS_PORT's default is shared by every process)
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', OPS_PORT: '0', ...env },
  })
  const logs: string[] = []
  const waiters: Array<{ msg: string; resolve: (record: Record<string, unknown>) => void }> = []
  let buffered = ''
  const onData = (chunk: Buffer) => {
    buffered += chunk.toString()
    const lines = buffered.split('\n')
    buffered = lines.pop()!
    for (const line of lines) {
      logs.push(line)
      let record: Record<string, unknown>
      try {
        record = JSON.parse(line)
      } catch {
        continue
      }
      for (const waiter of waiters.filter((waiter) => record.msg === waiter.msg)) {
        waiters.splice(waiters.indexOf(waiter), 1)
        waiter.resolve(record)
      }
    }
  }
  child.stdout!.on('data', onData)
  child.stderr!.on('data', onData)
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve))

  return {
    child,
    logs,
    exited,
    waitForLog(msg, timeoutMs = START_DEADLINE_MS) {
      const seen = logs
        .map((line) => {
          try {
            return JSON.parse(line)
          } catch {
            return undefined
          }
        })
        .find((record) => record?.msg === msg)
      if (seen) return Promise.resolve(seen)
      const found = new Promise<Record<string, unknown>>((resolve) => waiters.push({ msg, resolve }))
      const failed = exited.then((code) => {
        throw new Error(`process exited (${code}) before "${msg}":\n${logs.join('\n')}`)
      })
      return withDeadline(Promise.race([found, failed]), timeoutMs, `log "${msg}"`)
    },
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM')
      return withDeadline(exited, 15_000, 'process exit')
    },
  }
}
