import type { JetStreamManager, StoredMsg } from '@nats-io/jetstream'
import { PAIRS } from '../schemas/pairs.ts'
import { seqOf } from './nats-tick-log.ts'
import type { LatestRow } from './price-bus.ts'
import type { BusNames } from './subjects.ts'

/** the header a deleted or purged key's marker names its operation in (@nats-io/kv's `kvOperationHdr`, not exported) */
const KV_OPERATION = 'KV-Operation'

/**
 * Reads every listed pair's latest row from the key-value bucket's stream, with the per-pair seq its writer put
 * beside it: one get of each pair's last message at once. With direct gets allowed (the bucket's default) any of
 * the bucket's replicas answers, where listing the keys would make a consumer, which needs the bucket's leader and
 * the cluster's meta leader (both missing for a while after a node is lost or a partition heals). The messages are
 * read rather than the bucket's entries because an entry does not carry its message's headers.
 */
export function latestRowReader(jsm: JetStreamManager, names: BusNames, allowDirect: boolean) {
  const stream = `KV_${names.latestPricesBucket}`
  const lastOf = (subject: string): Promise<StoredMsg | null> =>
    allowDirect ? jsm.direct.getMessage(stream, { last_by_subj: subject }) : jsm.streams.getMessage(stream, { last_by_subj: subject })
  return async (): Promise<Map<string, LatestRow>> => {
    const messages = await Promise.all(PAIRS.map(({ symbol }) => lastOf(names.latestRowSubject(symbol))))
    const rows = new Map<string, LatestRow>()
    PAIRS.forEach(({ symbol }, index) => {
      const message = messages[index]
      // a deleted or purged key's last message is its marker, which names the operation; a row names none
      if (message && !message.header?.get(KV_OPERATION)) rows.set(symbol, { row: message.data, seq: seqOf(message.header) })
    })
    return rows
  }
}
