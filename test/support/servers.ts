// Real nats-server and redis-server processes for tests, each on a free loopback port in its own
// temporary directory, stopped with the test.

import type { ChildProcess } from 'node:child_process'
import { spawnTiedToParent } from '../../deploy/devnet/child-process.ts'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
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

/**
 * A port nothing listens on now on 127.0.0.1, for a server to bind next. It is drawn from below the kernel's
 * ephemeral range (net.ipv4.ip_local_port_range), never from it: a port of that range can become the local port
 * of any outgoing connection on the machine (a load test opens thousands) before the server binds it, and the
 * server then cannot listen. A draw from some 12,000 ports seldom meets another file's draw in that moment.
 */
export async function freePort(): Promise<number> {
  const { low, high } = testPortRange()
  for (let attempt = 0; attempt < 100; attempt++) {
    const port = low + Math.floor(Math.random() * (high - low + 1))
    if (await canListen(port)) return port
  }
  throw new Error(`no free port between ${low} and ${high} after 100 draws`)
}

/** The ports below the ephemeral range, above the well-known ones (about 20000-32767 with Linux's default range). */
function testPortRange(): { low: number; high: number } {
  const ephemeralLow = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0])
  const high = ephemeralLow - 1
  if (!Number.isInteger(high) || high < 2048)
    throw new Error(`the ephemeral port range starts at ${ephemeralLow}: no room below it for test ports`)
  return { low: Math.max(1024, high - 12_767), high }
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer()
    server.unref()
    server.once('error', () => resolve(false))
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)))
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

/**
 * A JetStream cluster of `size` nats-servers on loopback, routed to each other (what the cluster run deploys, without
 * namespaces): for behaviour a single server does not show, such as a clustered stream's metadata. The servers are
 * up when this resolves; JetStream elects its meta leader a few seconds later (the bus's start requests retry).
 */
export async function startNatsCluster(size: number): Promise<RunningServer[]> {
  const nodes = []
  for (let index = 0; index < size; index++) nodes.push({ port: await freePort(), routePort: await freePort() })
  const routes = nodes.map(({ routePort }) => `nats://127.0.0.1:${routePort}`).join(',')
  return Promise.all(
    nodes.map(({ port, routePort }, index) => {
      const dataDir = mkdtempSync(join(tmpdir(), 'nats-cluster-test-'))
      return supervise({
        binary: findBinary('nats-server'),
        args: [
          ...['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', dataDir, '--server_name', `n${index + 1}`],
          ...['--cluster_name', 'test', '--cluster', `nats://127.0.0.1:${routePort}`, '--routes', routes],
        ],
        readyLine: /Server is ready/,
        url: `nats://127.0.0.1:${port}`,
        port,
        dataDir,
      })
    }),
  )
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
