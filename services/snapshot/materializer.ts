import { setTimeout as sleep } from 'node:timers/promises'
import { retriedAtStart } from '../../kit/retried-at-start.ts'
import { throttledWarning } from '../../kit/throttled-warning.ts'
import type { Logger } from '../../kit/logger.ts'
import type { Metrics } from '../../kit/metrics.ts'
import type { LatestRow, PriceBus } from '../../bus/price-bus.ts'
import { PAIRS, pairBySymbol } from '../../schemas/pairs.ts'
import type { StatusRecord } from '../../schemas/price.ts'

export interface MaterializerOptions {
  bus: PriceBus
  /** the feed is stale when no tick has arrived for this long */
  staleAfterMs: number
  /** the waits before each further read of the store (after a start or a reconnection, then between all later reads) */
  storeReads?: StoreReads
  logger: Logger
  metrics: Metrics
  now?: () => number
}

export interface Materializer {
  /** the snapshot envelope's bytes, rebuilt only when a row or the verdict changed; undefined before any tick */
  snapshotBody(): Buffer | undefined
  /** one pair's row bytes, or undefined if it has none */
  rowBody(pair: string): Buffer | undefined
  status(): StatusRecord
  /** every row with its pair symbol, in pair-id order (seeds a stream connection) */
  rows(): Array<[string, Buffer]>
  /** subscribe to row updates after the seed; returns an unsubscribe */
  onRow(listener: (pair: string, row: Buffer) => void): () => void
  stop(): void
}

/**
 * The latest row per pair, seeded from the bus's key-value store at start and kept current from the
 * tick subjects. Rows stay as the bytes the ingestor encoded: serving them never re-encodes a row.
 */
export async function startMaterializer(options: MaterializerOptions): Promise<Materializer> {
  const now = options.now ?? Date.now
  const log = options.logger.child({ module: 'materializer' })
  const rows = new Array<Buffer | undefined>(PAIRS.length)
  const listeners = new Set<(pair: string, row: Buffer) => void>()
  let pricedPairs = 0
  let lastTickAt = 0
  let version = 0
  let cached: { version: number; stale: boolean; body: Buffer } | undefined

  // each held row's per-pair seq (0: not numbered): a stored row replaces a held one when its seq is larger
  const heldSeqs = new Float64Array(PAIRS.length)
  // Raised on every reconnection: a pair that has ticked in the current epoch holds a live row, which a stored
  // row replaces only when both are numbered and the stored one is newer.
  let epoch = 0
  const liveInEpoch = new Int32Array(PAIRS.length).fill(-1)

  const store = (id: number, pair: string, row: Uint8Array, seq: number | undefined, receivedAt: number) => {
    const bytes = Buffer.isBuffer(row) ? row : Buffer.from(row.buffer, row.byteOffset, row.byteLength)
    if (rows[id] === undefined) options.metrics.pricedPairs.set(++pricedPairs)
    rows[id] = bytes
    heldSeqs[id] = seq ?? 0
    version++
    if (receivedAt > lastTickAt) lastTickAt = receivedAt
    for (const listener of listeners) listener(pair, bytes)
  }

  const received = options.metrics.ticksReceived.labels()
  // subscribe before reading the store, so no tick falls between the two
  const unsubscribe = options.bus.subscribeTicks((pair, row, seq) => {
    received.inc()
    const id = pairBySymbol(pair)?.id
    if (id === undefined) return log.debug({ pair }, 'tick for an unlisted pair ignored')
    store(id, pair, row, seq, now())
    liveInEpoch[id] = epoch
  })
  const isNewer = (id: number, stored: LatestRow) => {
    if (rows[id]?.equals(stored.row)) return false
    if (heldSeqs[id]! > 0 && stored.seq !== undefined) return stored.seq > heldSeqs[id]!
    return liveInEpoch[id] !== epoch
  }
  /** takes every stored row newer than the one held; counts the stored and the taken */
  const readStore = async (): Promise<{ stored: number; taken: number }> => {
    const stored = await options.bus.readLatest()
    let taken = 0
    for (const [pair, latest] of stored) {
      const id = pairBySymbol(pair)?.id
      if (id === undefined || !isNewer(id, latest)) continue
      // a stored row counts as a tick at its own timestamp, so an old store reads as stale
      store(id, pair, latest.row, latest.seq, timestampMsOf(latest.row))
      taken++
    }
    return { stored: stored.size, taken }
  }
  // a cluster just formed may let the first read time out: it is asked again, as the bus's own start requests are
  const seededPairs = (await retriedAtStart(readStore)).stored
  const rereads = storeRereads(readStore, options.storeReads ?? STORE_READS, log)
  rereads.schedule()
  options.metrics.busConnected.set(options.bus.isConnected() ? 1 : 0)
  const stopWatching = options.bus.onConnectionChange((connected) => {
    options.metrics.busConnected.set(connected ? 1 : 0)
    if (!connected) return
    epoch++
    rereads.schedule()
  })
  log.info({ seededPairs }, 'snapshot seeded from the latest-value store')

  const isStale = () => lastTickAt === 0 || !options.bus.isConnected() || now() - lastTickAt > options.staleAfterMs
  // off the tick path: the status gauges are sampled
  const sampleStatus = () => {
    options.metrics.feedDegraded.set(isStale() ? 1 : 0)
    options.metrics.feedLastTick.set(lastTickAt / 1000)
  }
  sampleStatus()
  const sampler = setInterval(sampleStatus, 1000)
  sampler.unref()

  return {
    snapshotBody() {
      if (pricedPairs === 0) return undefined
      const stale = isStale()
      if (!cached || cached.version !== version || cached.stale !== stale) {
        cached = { version, stale, body: buildSnapshot(rows, stale, now()) }
      }
      return cached.body
    },
    rowBody(pair) {
      const id = pairBySymbol(pair)?.id
      return id === undefined ? undefined : rows[id]
    },
    status() {
      const stale = isStale()
      return {
        status: stale ? 'degraded' : 'ok',
        prices: { pairs: pricedPairs, stale, lastTickAt },
        time: now(),
      }
    },
    rows() {
      const present: Array<[string, Buffer]> = []
      rows.forEach((row, id) => row && present.push([PAIRS[id]!.symbol, row]))
      return present
    },
    onRow(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    stop() {
      rereads.stop()
      clearInterval(sampler)
      unsubscribe()
      stopWatching()
      listeners.clear()
    },
  }
}

export interface StoreReads {
  /** the waits before the first further reads after a start or a reconnection */
  afterChangeMs: number[]
  /** the wait before each read after those */
  everyMs: number
}

/** reads 0.5, 1.5, 3.5 and 7.5 s after a start or a reconnection, then every 5 s */
const STORE_READS: StoreReads = { afterChangeMs: [500, 1000, 2000, 4000], everyMs: 5_000 }

/**
 * The store is read again a few times over the seconds after the edge starts and after every
 * reconnection, then every 5 s for as long as the edge runs, for the rows the subscription could not deliver:
 * - a row published just before the edge subscribed reaches the store only on the publisher's next write
 *   turn (every 250 ms, NatsPriceBusOptions.latestWriteIntervalMs), after the edge's first read;
 * - a row published while the edge was off the bus never reaches it on the subject;
 * - a tick the tick stream did not store (while it had no leader, in a partition or a node's loss) is never
 *   republished to any edge, while the publisher's own write still puts its row in the store.
 * An open market ticks again soon, but a closed one publishes its row only when its flags flip: without
 * these reads an edge could miss a closed market's row, or show it open, until the next flip.
 */
function storeRereads(readStore: () => Promise<{ taken: number }>, waits: StoreReads, log: Logger) {
  let round = new AbortController()
  // a store that stays unreadable (the bus down) is said once a minute, not every 5 s
  const readFailed = throttledWarning(log, 'reading the latest-value store again failed', 60_000)
  const reread = async (signal: AbortSignal) => {
    for (let read = 0; ; read++) {
      await sleep(waits.afterChangeMs[read] ?? waits.everyMs, undefined, { signal, ref: false })
      try {
        const { taken } = await readStore()
        if (taken > 0) log.info({ pairs: taken }, 'rows the subscription missed taken from the latest-value store')
      } catch (error) {
        readFailed('store', { err: error })
      }
    }
  }
  return {
    /** starts the reads again from the first (a later call replaces an earlier one's remaining reads) */
    schedule() {
      round.abort()
      round = new AbortController()
      // the reads catch their own failures: only the abort of a replaced or stopped round ends this early
      reread(round.signal).catch(() => undefined)
    },
    stop: () => round.abort(),
  }
}

const SNAPSHOT_HEAD = Buffer.from('{"prices":[')
const COMMA = Buffer.from(',')

function buildSnapshot(rows: Array<Buffer | undefined>, stale: boolean, generatedAt: number): Buffer {
  const parts: Buffer[] = [SNAPSHOT_HEAD]
  for (const row of rows) {
    if (!row) continue
    if (parts.length > 1) parts.push(COMMA)
    parts.push(row)
  }
  parts.push(Buffer.from(`],"stale":${stale},"generatedAt":${generatedAt}}`))
  return Buffer.concat(parts)
}

function timestampMsOf(row: Uint8Array): number {
  try {
    const seconds = (JSON.parse(Buffer.from(row).toString()) as { timestampSeconds?: unknown }).timestampSeconds
    return typeof seconds === 'number' ? seconds * 1000 : 0
  } catch {
    return 0
  }
}
