import { spawn } from 'node:child_process'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { START_DEADLINE_MS, withDeadline } from './wait.ts'

const MAIN = fileURLToPath(new URL('./relayer-worker-main.ts', import.meta.url))

export interface RelayerWorkerProcess {
  /** every stdout and stderr line so far */
  lines: string[]
  /** the first JSON log record whose msg is `msg`, once it has been written */
  waitForLog(msg: string, timeoutMs?: number): Promise<Record<string, unknown>>
  kill(signal: NodeJS.Signals): void
  /** resolves with the exit code (null when killed by a signal) */
  exited: Promise<number | null>
}

/** Runs test/support/relayer-worker-main.ts as a real process with this environment. */
export function startRelayerWorker(env: Record<string, string>): RelayerWorkerProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const lines: string[] = []
  const listeners = new Set<(line: string) => void>()
  for (const stream of [child.stdout, child.stderr]) {
    createInterface({ input: stream }).on('line', (line) => {
      lines.push(line)
      for (const listener of listeners) listener(line)
    })
  }
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve))
  const recordWithMsg = (line: string, msg: string) => {
    try {
      const record = JSON.parse(line) as Record<string, unknown>
      return record.msg === msg ? record : undefined
    } catch {
      return undefined
    }
  }

  return {
    lines,
    waitForLog(msg, timeoutMs = START_DEADLINE_MS) {
      const seen = lines.map((line) => recordWithMsg(line, msg)).find(Boolean)
      if (seen) return Promise.resolve(seen)
      const found = new Promise<Record<string, unknown>>((resolve) => {
        const listener = (line: string) => {
          const record = recordWithMsg(line, msg)
          if (!record) return
          listeners.delete(listener)
          resolve(record)
        }
        listeners.add(listener)
      })
      const died = exited.then((code) => {
        throw new Error(`the worker exited (${code}) before logging "${msg}":\n${lines.join('\n')}`)
      })
      return withDeadline(Promise.race([found, died]), timeoutMs, `log "${msg}"`)
    },
    kill: (signal) => void child.kill(signal),
    exited,
  }
}
