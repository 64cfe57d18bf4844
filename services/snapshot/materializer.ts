import { setTimeout as sleep } from 'node:timers/promises'
import { hotCounter } from '../../kit/hot-counter.ts'
import { retriedAtStart } from '../../kit/retried-at-start.ts'
import type { Logger } from '../../kit/logger.ts'
import type { Metrics } from '../../kit/metrics.ts'
import type { PriceBus } from '../../bus/price-bus.ts'
import { PAIRS, pairBySymbol } from '../../schemas/pairs.ts'
import type { StatusRecord } from '../../schemas/price.ts'

export interface MaterializerOptions {
  bus: PriceBus
  /** the feed is stale when no tick has arrived for this long */
  staleAfterMs: number
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

  // Raised on every reconnection: a pair that has ticked in the current epoch holds a live row, which no
  // stored row replaces.
  let epoch = 0
  const liveInEpoch = new Int32Array(PAIRS.length).fill(-1)

  const store = (id: number, pair: string, row: Uint8Array, receivedAt: number) => {
    const bytes = Buffer.isBuffer(row) ? row : Buffer.from(row.buffer, row.byteOffset, row.byteLength)
    if (rows[id] === undefined) options.metrics.pricedPairs.set(++pricedPairs)
    rows[id] = bytes
    version++
    if (receivedAt > lastTickAt) lastTickAt = receivedAt
    for (const listener of listeners) listener(pair, bytes)
  }

  const received = hotCounter(options.metrics.ticksReceived)
  // subscribe before reading the store, so no tick falls between the two
  const unsubscribe = options.bus.subscribeTicks((pair, row) => {
    received.inc()
    const id = pairBySymbol(pair)?.id
    if (id === undefined) return log.debug({ pair }, 'tick for an unlisted pair ignored')
    store(id, pair, row, now())
    liveInEpoch[id] = epoch
  })
  /** takes the stored row of every pair without a tick this epoch whose row differs; counts the stored and the taken */
  const readStore = async (): Promise<{ stored: number; taken: number }> => {
    const stored = await options.bus.readLatest()
    let taken = 0
    for (const [pair, row] of stored) {
      const id = pairBySymbol(pair)?.id
      if (id === undefined || liveInEpoch[id] === epoch || rows[id]?.equals(row)) continue
      // a stored row counts as a tick at its own timestamp, so an old store reads as stale
      store(id, pair, row, timestampMsOf(row))
      taken++
    }
    return { stored: stored.size, taken }
  }
  // a cluster just formed may let the first read time out: it is asked again, as the bus's own start requests are
  const seededPairs = (await retriedAtStart(readStore)).stored
  const rereads = storeRereads(readStore, log)
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
      received.stop()
      stopWatching()
      listeners.clear()
    },
  }
}

/** the waits between the further reads of the store after a start or a reconnection: 7.5 s in all */
const REREAD_WAITS_MS = [500, 1000, 2000, 4000]

/**
 * The store is read again a few times over the seconds after the edge starts and after every
 * reconnection, for the rows the subscription could not deliver:
 * - a row published just before the edge subscribed reaches the store only on the publisher's next write
 *   turn (every 250 ms, NatsPriceBusOptions.latestWriteIntervalMs), after the edge's first read;
 * - a row published while the edge was off the bus never reaches it on the subject.
 * An open market ticks again soon, but a closed one publishes its row only when its flags flip: without
 * these reads an edge could miss a closed market's row, or show it open, until the next flip.
 */
function storeRereads(readStore: () => Promise<{ taken: number }>, log: Logger) {
  let round = new AbortController()
  const reread = async (signal: AbortSignal) => {
    for (const wait of REREAD_WAITS_MS) {
      await sleep(wait, undefined, { signal, ref: false })
      try {
        const { taken } = await readStore()
        if (taken > 0) log.info({ pairs: taken }, 'rows the subscription missed taken from the latest-value store')
      } catch (error) {
        log.warn({ err: error }, 'reading the latest-value store again failed')
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
