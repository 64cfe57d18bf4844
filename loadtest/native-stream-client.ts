// The native stream client: the shared epoll client (../shared/tools/stream-load/client.c beside this
// repository, STREAM_LOAD_DIR, or a directory given), compiled at run time and never committed, driven over
// its stdin/stdout protocol; and a publisher of rows in the edge's format whose last field "t" is the
// publish time in µs (monotonic), which the client reads back from each tick frame's tail for latency.
import type { NatsConnection } from '@nats-io/transport-node'
import { execFileSync, spawn, type ChildProcess } from 'node:child_process'
import { existsSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { busNames } from '../bus/subjects.ts'
import { PAIRS } from '../schemas/pairs.ts'
import { pinned } from './pinning.ts'

const SYMBOLS = PAIRS.map((pair) => pair.symbol)
/** Compiles the native client from the shared tool's source (`toolDir`, else STREAM_LOAD_DIR, else beside this repository) into a temporary directory; its path. */
export function buildLoadClient(toolDir?: string): string {
  const sourceDir = toolDir ?? process.env.STREAM_LOAD_DIR ?? fileURLToPath(new URL('../../shared/tools/stream-load/', import.meta.url))
  if (!existsSync(join(sourceDir, 'client.c'))) {
    throw new Error(`the native load client's source is not at ${join(sourceDir, 'client.c')} (give its directory or set STREAM_LOAD_DIR)`)
  }
  const binary = join(mkdtempSync(join(tmpdir(), 'stream-load-')), 'client')
  execFileSync('cc', ['-O2', '-o', binary, join(sourceDir, 'client.c')])
  return binary
}

export interface ClientReport {
  conns: number
  failed: number
  msgs: number
  gaps: number
  closes: number
  rate: number
  p50ms: number
  p99ms: number
  p999ms: number
  maxms: number
}

/** One native client process holding `count` connections; commands on stdin, answers on stdout. */
export class LoadClient {
  private readonly child: ChildProcess
  private readonly lines: string[] = []
  private waiting: (() => void) | undefined

  constructor(options: { binary: string; port: number; count: number; pairs: string; cpus?: string }) {
    const { binary, port, count, pairs } = options
    const [command, ...rest] = pinned(options.cpus, [
      binary,
      `--n=${count}`,
      `--port=${port}`,
      `--pairs=${pairs}`,
      `--symbols=${SYMBOLS.join(',')}`,
      '--origin=http://bench',
      '--quickack=1',
    ])
    this.child = spawn(command!, rest, { stdio: ['pipe', 'pipe', 'inherit'] })
    createInterface({ input: this.child.stdout! }).on('line', (line) => {
      this.lines.push(line)
      this.waiting?.()
    })
  }

  get pid(): number {
    return this.child.pid!
  }

  async next(prefix: string, timeoutMs = 60_000): Promise<string> {
    const deadline = Date.now() + timeoutMs
    for (;;) {
      const index = this.lines.findIndex((line) => line.startsWith(prefix))
      if (index >= 0) return this.lines.splice(0, index + 1).at(-1)!
      if (Date.now() > deadline) throw new Error(`load client: no "${prefix}" line`)
      await new Promise<void>((resolve) => {
        this.waiting = resolve
        setTimeout(resolve, 100)
      })
    }
  }

  async connected(): Promise<number> {
    const line = await this.next('CONNECTED')
    if (!line.includes('failed=0')) throw new Error(`load client: ${line}`)
    return Number(line.split(' ')[1])
  }

  async reset(): Promise<void> {
    this.child.stdin!.write('reset\n')
    await this.next('RESET')
  }

  async report(): Promise<ClientReport> {
    this.child.stdin!.write('report\n')
    return JSON.parse((await this.next('REPORT')).slice('REPORT '.length)) as ClientReport
  }

  pause = () => this.child.kill('SIGSTOP')
  resume = () => this.child.kill('SIGCONT')

  async close(): Promise<void> {
    const exited = new Promise((resolve) => this.child.once('exit', resolve))
    this.child.kill('SIGCONT')
    this.child.kill('SIGTERM')
    await exited
  }
}

/** Publishes rows stamped with their publish time (the native client's latency source) on the service's bus. */
export class StampedTickPublisher {
  private readonly subjects: string[]
  private readonly heads = PAIRS.map(
    (pair) =>
      `{"feed_id":"0x${pair.id.toString(16).padStart(64, '0')}","pair":"${pair.symbol}","from":"${pair.base}","to":"${pair.quote}",` +
      `"bid":99.99,"mid":100,"ask":100.01,"isMarketOpen":true,"isDayTradingClosed":false,"secondsToToggleIsDayTradingClosed":-1,` +
      `"timestampSeconds":${Math.floor(Date.now() / 1000)},"schedule":{"id":0,"alwaysOpen":true},"t":`,
  )

  constructor(
    private readonly nc: NatsConnection,
    namespace: string,
  ) {
    const names = busNames(namespace)
    this.subjects = PAIRS.map((pair) => names.tickSubject(pair.symbol))
  }

  private publish(pairId: number): void {
    const micros = (process.hrtime.bigint() / 1000n).toString().padStart(16, '0')
    this.nc.publish(this.subjects[pairId]!, Buffer.from(`${this.heads[pairId]}${micros}}`))
  }

  /** One row per pair, so snapshots carry every row. */
  async warm(): Promise<void> {
    for (const pair of PAIRS) this.publish(pair.id)
    await this.nc.flush()
  }

  /** `rate` rows a second, round-robin over the first `pairCount` pairs, for `durationMs`. */
  async run(rate: number, durationMs: number, pairCount = PAIRS.length): Promise<void> {
    const startedAt = performance.now()
    let sent = 0
    await new Promise<void>((resolve) => {
      const timer = setInterval(() => {
        const elapsed = performance.now() - startedAt
        const due = Math.floor((Math.min(elapsed, durationMs) * rate) / 1000)
        for (; sent < due; sent++) this.publish(sent % pairCount)
        if (elapsed >= durationMs) {
          clearInterval(timer)
          resolve()
        }
      }, 1)
    })
    await this.nc.flush()
  }
}
