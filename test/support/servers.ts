// Real nats-server and redis-server processes for tests, each on a free loopback port in its own
// temporary directory, stopped with the test.

import type { ChildProcess } from 'node:child_process'
import { spawnTiedToParent } from '../../deploy/devnet/child-process.ts'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { START_DEADLINE_MS, withDeadline } from './wait.ts'

export interface RunningServer {
  url: string
  port: number
  /** stops the process; the data directory is kept so that start() can bring it back */
  stop(): Promise<void>
  /** starts it again on the same port and data directory (for restart tests) */
  start(): Promise<void>
  /** stops it and removes its data directory */
  dispose(): Promise<void>
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.unref()
    server.on('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))))
    })
  })
}

function findBinary(name: string): string {
  for (const dir of (process.env.PATH ?? '').split(':').concat(['/usr/sbin', '/usr/local/sbin', '/usr/bin'])) {
    const candidate = join(dir, name)
    if (dir && existsSync(candidate)) return candidate
  }
  throw new Error(`${name} not found on PATH: install it (Debian package ${name})`)
}

async function supervise(options: {
  binary: string
  args: string[]
  readyLine: RegExp
  url: string
  port: number
  dataDir: string
}): Promise<RunningServer> {
  let child: ChildProcess | undefined
  const start = async () => {
    const process_ = spawnTiedToParent(options.binary, options.args)
    child = process_
    let output = ''
    const ready = new Promise<void>((resolve, reject) => {
      const onData = (chunk: Buffer) => {
        output += chunk.toString()
        if (options.readyLine.test(output)) resolve()
      }
      process_.stdout!.on('data', onData)
      process_.stderr!.on('data', onData)
      process_.once('exit', (code) => reject(new Error(`${options.binary} exited with ${code}: ${output}`)))
    })
    await withDeadline(ready, START_DEADLINE_MS, `${options.binary} to be ready`)
  }
  const stop = async () => {
    const running = child
    child = undefined
    if (!running || running.exitCode !== null) return
    const exited = new Promise((resolve) => running.once('exit', resolve))
    running.kill('SIGKILL')
    await exited
  }
  await start()
  return {
    url: options.url,
    port: options.port,
    start,
    stop,
    async dispose() {
      await stop()
      rmSync(options.dataDir, { recursive: true, force: true })
    },
  }
}

/**
 * Starts a server on a free port; when another process took that port between freePort and the server's bind
 * (tests run side by side), on another one.
 */
async function onFreePort(start: (port: number) => Promise<RunningServer>): Promise<RunningServer> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await start(await freePort())
    } catch (error) {
      if (attempt === 3 || !/address already in use/i.test((error as Error).message)) throw error
    }
  }
}

/** nats-server with JetStream (key-value buckets need it). */
export function startNats(): Promise<RunningServer> {
  return onFreePort(startNatsOn)
}

function startNatsOn(port: number): Promise<RunningServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'nats-test-'))
  return supervise({
    binary: findBinary('nats-server'),
    args: ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', dataDir],
    readyLine: /Server is ready/,
    url: `nats://127.0.0.1:${port}`,
    port,
    dataDir,
  })
}

/** redis-server with an append-only file synced on every write, so even a killed server keeps what was written (queued jobs). */
/** `password` makes the server require it (requirepass), for tests of credential handling. */
export function startRedis(options: { password?: string } = {}): Promise<RunningServer> {
  return onFreePort((port) => startRedisOn(port, options))
}

function startRedisOn(port: number, options: { password?: string }): Promise<RunningServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'redis-test-'))
  const auth = options.password ? ['--requirepass', options.password] : []
  return supervise({
    binary: findBinary('redis-server'),
    args: [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      'yes',
      '--appendfsync',
      'always',
      '--dir',
      dataDir,
      ...auth,
    ],
    readyLine: /Ready to accept connections/,
    url: `redis://127.0.0.1:${port}`,
    port,
    dataDir,
  })
}
