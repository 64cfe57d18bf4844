import type { JetStreamManager, StoredMsg } from '@nats-io/jetstream'
import { PAIRS } from '../schemas/pairs.ts'
import { seqOf } from './nats-tick-log.ts'
import type { LatestRow } from './price-bus.ts'
import type { BusNames } from './subjects.ts'

/** the header a deleted or purged key's marker names its operation in (@nats-io/kv's `kvOperationHdr`, not exported) */
const KV_OPERATION = 'KV-Operation'

/** what a read did not get: the pairs whose get failed, and the first failure */
export interface UnansweredGets {
  pairs: string[]
  error: unknown
}

/**
 * Reads every listed pair's latest row from the key-value bucket's stream, with the per-pair seq its writer put
 * beside it: one get of each pair's last message at once. With direct gets allowed (the bucket's default) any of
 * the bucket's replicas answers, where listing the keys would make a consumer, which needs the bucket's leader and
 * the cluster's meta leader (both missing for a while after a node is lost or a partition heals). The messages are
 * read rather than the bucket's entries because an entry does not carry its message's headers.
 *
 * The rows of the gets that answered are taken even when others failed (after a partition, a replica still
 * catching up lets some gets time out for a while): `onUnanswered` hears of the rest, which the next read asks
 * for again. The read fails only when no get answered.
 */
export function latestRowReader(
  jsm: JetStreamManager,
  names: BusNames,
  allowDirect: boolean,
  onUnanswered: (unanswered: UnansweredGets) => void,
) {
  const stream = `KV_${names.latestPricesBucket}`
  const lastOf = (subject: string): Promise<StoredMsg | null> =>
    allowDirect ? jsm.direct.getMessage(stream, { last_by_subj: subject }) : jsm.streams.getMessage(stream, { last_by_subj: subject })
  return async (): Promise<Map<string, LatestRow>> => {
    const answers = await Promise.allSettled(PAIRS.map(({ symbol }) => lastOf(names.latestRowSubject(symbol))))
    const rows = new Map<string, LatestRow>()
    const unanswered: UnansweredGets = { pairs: [], error: undefined }
    PAIRS.forEach(({ symbol }, index) => {
      const answer = answers[index]!
      if (answer.status === 'rejected') {
        unanswered.pairs.push(symbol)
        unanswered.error ??= answer.reason
        return
      }
      const message = answer.value
      // a deleted or purged key's last message is its marker, which names the operation; a row names none
      if (message && !message.header?.get(KV_OPERATION)) rows.set(symbol, { row: message.data, seq: seqOf(message.header) })
    })
    if (unanswered.pairs.length === PAIRS.length) throw unanswered.error
    if (unanswered.pairs.length > 0) onUnanswered(unanswered)
    return rows
  }
}
