import type { NatsConnection } from '@nats-io/transport-node'
import { busNames } from '../bus/subjects.ts'
import { PAIRS } from '../schemas/pairs.ts'
import { rowBytes, syntheticPriceRow } from '../schemas/synthetic-price-row.ts'
import { publishedAtBuffer, publishedAtSlot } from './stream-protocol.ts'

/**
 * Publishes price rows on the service's tick subjects at a paced rate and keeps each publish time by
 * (pair, seq), so clients measure exact tick-to-client latency. The edge numbers each pair's ticks from 1
 * in the order it receives them; with this the only publisher on its namespace, the n-th tick published
 * for a pair is its seq n.
 */
export class TickPublisher {
  readonly publishedAt = publishedAtBuffer()
  private readonly times = new Float64Array(this.publishedAt)
  private readonly published = new Float64Array(PAIRS.length)
  private readonly subjects: string[]
  private readonly rows = PAIRS.map((pair) => rowBytes(syntheticPriceRow(pair.symbol)))

  /** `rowFor` gives the bytes of a pair's n-th tick; by default every tick of a pair carries the same row */
  constructor(
    private readonly nc: NatsConnection,
    namespace: string,
    private readonly rowFor: (pairId: number, seq: number) => Buffer = (pairId) => this.rows[pairId]!,
  ) {
    const names = busNames(namespace)
    this.subjects = PAIRS.map((pair) => names.tickSubject(pair.symbol))
  }

  /** ticks published so far */
  get total(): number {
    return this.published.reduce((sum, count) => sum + count, 0)
  }

  publish(pairId: number): void {
    const seq = ++this.published[pairId]!
    this.times[publishedAtSlot(pairId, seq)] = performance.timeOrigin + performance.now()
    this.nc.publish(this.subjects[pairId]!, this.rowFor(pairId, seq))
  }

  /** One tick per pair, so snapshots carry every row. */
  async warm(): Promise<void> {
    for (const pair of PAIRS) this.publish(pair.id)
    await this.nc.flush()
  }

  /** Publishes `rate` ticks per second, round-robin over `pairIds`, for `durationMs` (or until `stop()`). */
  async run(rate: number, durationMs: number, pairIds: readonly number[] = PAIRS.map((pair) => pair.id)): Promise<void> {
    const startedAt = performance.now()
    let sent = 0
    this.stopped = false
    await new Promise<void>((resolve) => {
      const timer = setInterval(() => {
        const elapsed = performance.now() - startedAt
        const due = Math.floor((Math.min(elapsed, durationMs) * rate) / 1000)
        for (; sent < due; sent++) this.publish(pairIds[sent % pairIds.length]!)
        if (elapsed >= durationMs || this.stopped) {
          clearInterval(timer)
          resolve()
        }
      }, 1)
    })
    await this.nc.flush()
  }

  private stopped = false

  stop(): void {
    this.stopped = true
  }
}
