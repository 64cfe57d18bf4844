import type { z } from 'zod'
import type { Logger } from '../../kit/logger.ts'
import type { Metrics } from '../../kit/metrics.ts'
import type { ChainId } from '../../schemas/common.ts'

// One odd record must not fail a read: each record of a page is checked on its own, and one whose
// required field is missing or malformed is left out, counted, and warned about at most once a minute
// per chain, entity and field (with how many were left out since).

const WARN_EVERY_MS = 60_000

export interface RecordCheck {
  /** The records that pass `schema`; the others are left out and reported. */
  keep<Schema extends z.ZodType>(chainId: ChainId, entity: string, records: readonly unknown[], schema: Schema): z.infer<Schema>[]
}

export function createRecordCheck(log: Logger, metrics: Metrics, now: () => number = Date.now): RecordCheck {
  const pending = new Map<string, { count: number; lastWarnedAt: number }>()

  function report(chainId: ChainId, entity: string, field: string, record: unknown): void {
    metrics.indexerRecordsSkipped.labels(String(chainId), entity, field).inc()
    const key = `${chainId} ${entity} ${field}`
    const state = pending.get(key) ?? { count: 0, lastWarnedAt: -Infinity }
    state.count += 1
    pending.set(key, state)
    if (now() - state.lastWarnedAt < WARN_EVERY_MS) return
    log.warn(
      { chainId, entity, field, skipped: state.count, id: idOf(record) },
      'indexed source sent records without a usable field; left them out',
    )
    state.count = 0
    state.lastWarnedAt = now()
  }

  return {
    keep(chainId, entity, records, schema) {
      const kept = []
      for (const record of records) {
        const parsed = schema.safeParse(record)
        if (parsed.success) kept.push(parsed.data)
        else report(chainId, entity, parsed.error.issues[0]?.path.join('.') || '(record)', record)
      }
      return kept
    },
  }
}

function idOf(record: unknown): unknown {
  return typeof record === 'object' && record !== null && 'id' in record ? record.id : undefined
}
