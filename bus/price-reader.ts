// For internal services that read prices from NATS without the edge: every tick as it is published, and
// the latest row per pair from the key-value bucket, decoded and checked.
//
// Compatibility: subjects carry the row format's version (prices.v1...). Within v1 changes are additive
// only, so rows are read leniently: fields this reader does not know are kept, never refused. A change
// that removes, renames or retypes a field goes out on v2 subjects beside v1 for a deprecation period.
import type { NatsConnection, Subscription } from '@nats-io/transport-node'
import { Kvm } from '@nats-io/kv'
import { PriceRow } from '../schemas/price.ts'
import { busNames } from './subjects.ts'
import { connectResiliently } from './nats-connection.ts'

export interface PriceReaderOptions {
  /** NATS servers, e.g. nats://nats-1:4222,nats://nats-2:4222 */
  servers: string
  /** the deployment's BUS_NAMESPACE, empty in production */
  namespace?: string
  /** connection name shown by the server */
  name?: string
  /** a row that does not decode is skipped and reported here */
  onInvalid?: (pair: string, reason: string) => void
}

export interface TickSubscription extends AsyncIterable<PriceRow> {
  /** resolves once the server has the subscription: ticks published from then on arrive */
  ready: Promise<void>
  /** stops the subscription; the iteration ends after the rows already received */
  stop(): void
}

export interface PriceReader {
  /**
   * Every tick of `pairs` (all pairs when omitted), in publish order per pair. Readers sharing a
   * `queueGroup` split the ticks between them, each tick reaching one of them.
   */
  ticks(options?: { pairs?: readonly string[]; queueGroup?: string }): TickSubscription
  /** the latest row of every pair, from the bucket (written at most every 250 ms per pair) */
  latest(): Promise<Map<string, PriceRow>>
  close(): Promise<void>
}

const LenientRow = PriceRow.loose()

export async function openPriceReader(options: PriceReaderOptions): Promise<PriceReader> {
  const names = busNames(options.namespace)
  const nc: NatsConnection = await connectResiliently(options.servers, options.name ?? 'price-reader')
  const bucket = await new Kvm(nc).open(names.latestPricesBucket)
  const decode = (pair: string, bytes: Uint8Array): PriceRow | undefined => {
    let value: unknown
    try {
      value = JSON.parse(new TextDecoder().decode(bytes))
    } catch {
      options.onInvalid?.(pair, 'not JSON')
      return undefined
    }
    const parsed = LenientRow.safeParse(value)
    if (!parsed.success)
      options.onInvalid?.(pair, parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; '))
    return parsed.success ? parsed.data : undefined
  }

  return {
    ticks({ pairs, queueGroup } = {}) {
      const subjects = pairs ? pairs.map((pair) => names.tickSubject(pair)) : [names.allTicks]
      const subscriptions: Subscription[] = subjects.map((subject) => nc.subscribe(subject, { queue: queueGroup }))
      const rows: PriceRow[] = []
      let wake: (() => void) | undefined
      let open = subscriptions.length
      for (const subscription of subscriptions) {
        void (async () => {
          for await (const message of subscription) {
            const row = decode(names.pairOfTickSubject(message.subject), message.data)
            if (row) rows.push(row)
            wake?.()
          }
          open--
          wake?.()
        })()
      }
      return {
        ready: nc.flush(),
        stop: () => subscriptions.forEach((subscription) => subscription.unsubscribe()),
        async *[Symbol.asyncIterator]() {
          for (;;) {
            while (rows.length > 0) yield rows.shift()!
            if (open === 0) return
            await new Promise<void>((resolve) => (wake = resolve))
          }
        },
      }
    },
    async latest() {
      const rows = new Map<string, PriceRow>()
      for await (const key of await bucket.keys()) {
        const entry = await bucket.get(key)
        const row = entry?.operation === 'PUT' ? decode(key, entry.value) : undefined
        if (row) rows.set(key, row)
      }
      return rows
    },
    close: () => nc.drain(),
  }
}
