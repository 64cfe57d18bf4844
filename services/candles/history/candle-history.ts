// Upstream history wired for an edge: the source (HISTORY_URL, or the embedded stand-in handed in by
// `npm start`), the ledger and call budget (Redis when configured), the on-demand fetches the OHLC and
// UDF routes use, and the background backfill and repair.

import type { Redis } from 'ioredis'
import type { Logger } from '../../../kit/logger.ts'
import type { Metrics } from '../../../kit/metrics.ts'
import { maskUrl } from '../../../kit/redaction.ts'
import { PAIRS } from '../../../schemas/pairs.ts'
import type { CandleStore } from '../candle-store.ts'
import type { CandleSource } from '../ohlc-page.ts'
import { callBudget } from './call-budget.ts'
import { startHistoryBackfill, type HistoryBackfill } from './history-backfill.ts'
import type { EmbeddedHistorySource, EmbeddedHistoryStarter, HistoryConfig } from './history-config.ts'
import { historyFailureCodec } from './history-failures.ts'
import { memoryHistoryLedger, redisHistoryLedger } from './history-ledger.ts'
import { marketActivity } from './market-activity.ts'
import { udfHistoryClient } from './udf-history-client.ts'
import { upstreamHistory } from './upstream-history.ts'

export interface CandleHistoryDeps {
  config: HistoryConfig
  store: CandleStore
  /** shares coverage, calls and the budget between replicas */
  redis: Redis | undefined
  keyPrefix: string
  keepPerResolution: number
  /** the candle writer's flush interval: a period settles a few of them after its end */
  flushIntervalMs: number
  /** starts the History API stand-in when no HISTORY_URL is set (`npm start` only) */
  startEmbedded: EmbeddedHistoryStarter | undefined
  /** resolves once prices are served: the stand-in and the backfill start then */
  afterPrices: Promise<void>
  metrics: Metrics
  logger: Logger
  now?: () => number
}

export interface CandleHistory {
  /** what readCandlePage needs; undefined without a source */
  source: CandleSource['history']
  backfill: HistoryBackfill | undefined
  stop(): Promise<void>
}

export function startCandleHistory(deps: CandleHistoryDeps): CandleHistory {
  const { config, logger } = deps
  const log = logger.child({ module: 'candle-history' })
  if (!config.url && !deps.startEmbedded) {
    log.info('upstream history: off, candles come from our own ticks only (set HISTORY_URL)')
    return { source: undefined, backfill: undefined, stop: async () => undefined }
  }
  const embedded: Promise<EmbeddedHistorySource> | undefined = config.url ? undefined : deps.afterPrices.then(() => deps.startEmbedded!())
  // a stand-in that did not start fails each fetch (502) rather than the process
  const client = (embedded ?? Promise.resolve(undefined)).then((standin) => {
    const base = standin?.url ?? config.url!
    log.info(
      {
        source: standin ? `embedded stand-in at ${base} (set HISTORY_URL)` : maskUrl(base),
        key: config.apiKey ? 'set' : 'none',
        ...(standin && { joinsSimulatorAt: new Date(standin.anchoredAt).toISOString() }),
      },
      'upstream history source',
    )
    return udfHistoryClient({ url: base, apiKey: config.apiKey })
  })
  client.catch((error: unknown) => log.error({ err: error }, 'the embedded history source did not start'))
  const upstream = upstreamHistory({
    store: deps.store,
    ledger: deps.redis
      ? redisHistoryLedger({ redis: deps.redis, keyPrefix: deps.keyPrefix, failures: historyFailureCodec })
      : memoryHistoryLedger(),
    client,
    budget: callBudget({ callsPerMinute: config.callsPerMinute, redis: deps.redis, keyPrefix: deps.keyPrefix }),
    barsPerCall: config.barsPerCall,
    keepPerResolution: deps.keepPerResolution,
    settleSeconds: Math.max(5, (5 * deps.flushIntervalMs) / 1000),
    marketActive: marketActivity(),
    metrics: deps.metrics,
    logger,
    now: deps.now,
  })
  const backfill = startHistoryBackfill({
    upstream,
    pairs: PAIRS.filter((pair) => upstream.covers(pair)),
    backfillSeconds: config.backfillSeconds,
    timeoutMs: Math.max(config.timeoutMs, 30_000),
    after: client.then(() => undefined),
    logger,
    now: deps.now,
  })
  return {
    source: { upstream, timeoutMs: config.timeoutMs },
    backfill,
    async stop() {
      await backfill.stop()
      await (await embedded?.catch(() => undefined))?.close()
    },
  }
}
