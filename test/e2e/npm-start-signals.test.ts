// `npm start` as an operator runs it: a SIGTERM to the npm process reaches the service, which stops.
// (npm forwards the signal to its script's process; the script execs node, so that is the service.)
import t from 'tap'
import { spawn } from 'node:child_process'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { isRunning } from '../support/is-running.ts'
import { withDeadline } from '../support/wait.ts'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))

t.test('SIGTERM to npm stops the service and nothing is left running', async (t) => {
  const npm = spawn('npm', ['start'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ROLES: 'ingestor', OPS_PORT: '0', HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const exited = new Promise<number | null>((resolve) => npm.once('exit', resolve))
  t.teardown(() => void npm.kill('SIGKILL'))
  const records: Array<Record<string, unknown>> = []
  const started = new Promise<Record<string, unknown>>((resolve) => {
    createInterface({ input: npm.stdout }).on('line', (line) => {
      if (!line.startsWith('{')) return
      const record = JSON.parse(line) as Record<string, unknown>
      records.push(record)
      if (record.msg === 'ops endpoints listening') resolve(record)
    })
  })
  const { pid } = await withDeadline(started, 90_000, 'the service to start')
  t.not(pid, npm.pid, 'the service logs its own pid')
  npm.kill('SIGTERM')
  await withDeadline(exited, 15_000, 'npm to exit')
  t.ok(
    records.some((record) => record.msg === 'stopped' && record.pid === pid),
    'the service shut down',
  )
  t.notOk(isRunning(pid as number), 'the service process is gone')
})
