// The native stream client: the epoll client in C of this repository (native/stream-client.c), compiled by
// native/build.sh into a temporary directory at run time and driven over its stdin/stdout protocol; and a publisher of rows in the edge's format whose last field "t" is the
// publish time in µs (monotonic), which the client reads back from each tick frame's tail for latency (or, for
// compact frames, rows whose stamp is a field of the row).
import type { NatsConnection } from '@nats-io/transport-node'
import { execFileSync, spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { busNames } from '../bus/subjects.ts'
import { PAIRS } from '../schemas/pairs.ts'
import { syntheticPriceRow } from '../schemas/synthetic-price-row.ts'
import { pinned } from './pinning.ts'

const SYMBOLS = PAIRS.map((pair) => pair.symbol)
/** Compiles the native client with the repository's build script into a temporary directory; its path. */
export function buildLoadClient(): string {
  const script = fileURLToPath(new URL('./native/build.sh', import.meta.url))
  const binary = join(mkdtempSync(join(tmpdir(), 'stream-client-')), 'stream-client')
  execFileSync('sh', [script, binary], { stdio: ['ignore', 'ignore', 'inherit'] })
  return binary
}

/** A client process's figures: `conns` to `refused503` and `reconnects` count from its start, the rest over its window (since `reset`). */
export interface ClientReport {
  /** connections open now, and of those, how many are current (hold their snapshot or a recovered resume) */
  conns: number
  /** the pairs the open connections take, summed: the ticks they expect from one round of every pair */
  pairsHeld: number
  withSnapshot: number
  opened: number
  failed: number
  /** upgrades answered with another status than 101, and of those with 503 */
  refused: number
  refused503: number
  closes: number
  reconnects: number
  msgs: number
  /** ticks the server announced as dropped in `gap` frames */
  gaps: number
  /** ticks missing from a pair's seq sequence on a connection */
  seqGaps: number
  snapshots: number
  /** ms from the window's start to the last snapshot received, -1 if none */
  lastSnapshotMs: number
  rate: number
  p50ms: number
  p99ms: number
  p999ms: number
  maxms: number
  /** bytes of every text frame received in the window */
  frameBytes: number
  /** `resumed` frames received in the window (with `resume`), recovered or not */
  resumesRecovered: number
  resumesRefused: number
}

export interface LoadClientOptions {
  binary: string
  /** the edge's port, or several: a closed or refused connection reopens on the next one */
  ports: number[]
  /** with two ports, the share (%) of the connections that open on the first (default 100) */
  firstPortShare?: number
  count: number
  /** 'all', 'rand:K' or a comma-separated list of symbols */
  pairs: string
  /** with rand:K, the share (%) of connections that take every pair instead */
  allPairsShare?: number
  /** parameters every connection adds to its query, e.g. `rate=fixed_rate@200ms` */
  query?: string
  /** loopback source addresses the connections are spread over (default: the kernel's choice, 127.0.0.1) */
  sources?: string[]
  /** reopen a closed or refused connection: at once, or after a full-jitter backoff honouring Retry-After */
  reconnect?: 'never' | 'at-once' | 'backoff'
  /** ask for cursors and reopen with ?from=<the last cursor>: a recovered resume keeps the seq baselines */
  resume?: boolean
  /** ask for compact frames (?format=compact) */
  format?: 'full' | 'compact'
  /** with resume: `latest` asks for each pair's latest tick only (&replay=latest) */
  replay?: 'all' | 'latest'
  /**
   * the connections' fixed-rate window (`rate=fixed_rate@<n>ms` in `query`): latency is then from the end of the
   * window a row was stamped in (the edge's windows end on multiples of it in wall-clock time), not from the stamp
   */
  windowMs?: number
  /** handshakes under way at once (default 200) */
  inflight?: number
  seed?: number
  cpus?: string
}

/** One native client process holding `count` connections; commands on stdin, answers on stdout. */
export class LoadClient {
  private readonly child: ChildProcess
  private readonly lines: string[] = []
  private waiting: (() => void) | undefined

  constructor(options: LoadClientOptions) {
    const [command, ...rest] = pinned(options.cpus, [
      options.binary,
      `--n=${options.count}`,
      `--ports=${options.ports.join(',')}`,
      `--first-port-share=${options.firstPortShare ?? 100}`,
      `--pairs=${options.pairs}`,
      `--all-pairs-share=${options.allPairsShare ?? 0}`,
      ...(options.query ? [`--query=${options.query}`] : []),
      `--symbols=${SYMBOLS.join(',')}`,
      ...(options.sources?.length ? [`--sources=${options.sources.join(',')}`] : []),
      `--reconnect=${options.reconnect ?? 'never'}`,
      `--inflight=${options.inflight ?? 200}`,
      `--resume=${options.resume ? 1 : 0}`,
      `--format=${options.format ?? 'full'}`,
      `--replay=${options.replay ?? 'all'}`,
      ...(options.windowMs ? [`--window-ms=${options.windowMs}`] : []),
      `--seed=${options.seed ?? 1}`,
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

  async connected(timeoutMs?: number): Promise<number> {
    const line = await this.next('CONNECTED', timeoutMs)
    if (!line.includes('failed=0 refused=0')) throw new Error(`load client: ${line}`)
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

/**
 * Added to a stamp (µs of the monotonic clock, as the native client reads it) so that its 16 digits never
 * start with 0: the row stays valid JSON, which the service parses (its candle writer) as it parses the feed's.
 */
const STAMP_OFFSET_US = 10n ** 15n

/**
 * How a row carries its stamp: `trailing`, in a last field "t" after a short schedule; `in-row`, a row as the
 * ingestor writes it (the whole schedule, no other field) with the stamp as its secondsToToggleIsDayTradingClosed,
 * so that a compact connection's static part stays the same from tick to tick.
 */
export type StampedRows = 'trailing' | 'in-row'

/** Each pair's row as the bytes before and after its stamp. */
function stampedRowParts(rows: StampedRows): Array<[string, string]> {
  const timestampSeconds = Math.floor(Date.now() / 1000)
  return PAIRS.map((pair) => {
    if (rows === 'in-row') {
      const row = JSON.stringify(
        syntheticPriceRow(pair.symbol, { bid: 99.99, ask: 100.01, secondsToToggleIsDayTradingClosed: 0, timestampSeconds }),
      )
      const [head, tail] = row.split('"secondsToToggleIsDayTradingClosed":0')
      return [`${head}"secondsToToggleIsDayTradingClosed":`, tail!]
    }
    const head =
      `{"feed_id":"0x${pair.id.toString(16).padStart(64, '0')}","pair":"${pair.symbol}","from":"${pair.base}","to":"${pair.quote}",` +
      `"bid":99.99,"mid":100,"ask":100.01,"isMarketOpen":true,"isDayTradingClosed":false,"secondsToToggleIsDayTradingClosed":-1,` +
      `"timestampSeconds":${timestampSeconds},"schedule":{"id":0,"alwaysOpen":true},"t":`
    return [head, '}']
  })
}

/** A stamp as the publisher writes it: this process's monotonic clock now, in µs. */
const stampNow = (): bigint => STAMP_OFFSET_US + process.hrtime.bigint() / 1000n

const TRAILING_STAMP = /"t":(\d+)\}$/

/**
 * µs from a `trailing` row's stamp to now, read in the process that published it (the stamp is its monotonic
 * clock); undefined for a row without one.
 */
export function microsecondsSinceStamp(row: Uint8Array): number | undefined {
  const stamp = TRAILING_STAMP.exec(
    Buffer.from(row.buffer, row.byteOffset, row.byteLength).toString('latin1', Math.max(0, row.byteLength - 24)),
  )
  return stamp ? Number(stampNow() - BigInt(stamp[1]!)) : undefined
}

/** Publishes rows stamped with their publish time (the native client's latency source) on the service's bus. */
export class StampedTickPublisher {
  private readonly subjects: string[]
  private readonly parts: Array<[string, string]>

  constructor(
    private readonly nc: Pick<NatsConnection, 'publish' | 'flush'>,
    namespace: string,
    rows: StampedRows = 'trailing',
  ) {
    const names = busNames(namespace)
    this.subjects = PAIRS.map((pair) => names.tickSubject(pair.symbol))
    this.parts = stampedRowParts(rows)
  }

  private publish(pairId: number): void {
    const stamp = stampNow()
    const [head, tail] = this.parts[pairId]!
    this.nc.publish(this.subjects[pairId]!, Buffer.from(`${head}${stamp}${tail}`))
  }

  /** One row per pair, so snapshots carry every row. */
  async warm(): Promise<void> {
    for (const pair of PAIRS) this.publish(pair.id)
    await this.nc.flush()
  }

  /**
   * Every pair once per slot of `slotMs` (the real feed's rhythm: Pyth's slots of about 400 ms), for `durationMs` or
   * until `stop` is aborted. One call keeps the rhythm: calls back to back would each start with a slot of their own.
   */
  async runSlots(slotMs: number, durationMs: number, stop?: AbortSignal): Promise<void> {
    const startedAt = performance.now()
    let slots = 0
    await new Promise<void>((resolve) => {
      const timer = setInterval(() => {
        const elapsed = performance.now() - startedAt
        for (; slots <= Math.min(elapsed, durationMs) / slotMs; slots++) for (const pair of PAIRS) this.publish(pair.id)
        if (elapsed >= durationMs || stop?.aborted) {
          clearInterval(timer)
          resolve()
        }
      }, 5)
    })
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
