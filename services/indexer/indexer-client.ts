import type { z } from 'zod'
import { ServiceError } from '../../kit/errors.ts'
import type { Logger } from '../../kit/logger.ts'
import type { Metrics } from '../../kit/metrics.ts'
import type { ChainId } from '../../schemas/common.ts'
import type { LimitsQuery, RestingOrder } from '../../schemas/limits.ts'
import type { ExecutedOrder, OrdersQuery } from '../../schemas/orders.ts'
import type { ListedPair } from '../../schemas/pair-list.ts'
import type { OpenTrade, TradesQuery } from '../../schemas/trades.ts'
import { createCoalescingCache } from './coalescing-cache.ts'
import type { IndexerConfig, IndexerUrls } from './config.ts'
import { IndexerFailure, postGraphql } from './graphql-post.ts'
import { toMarketState, type PairMarketState } from './market-state.ts'
import { isOmittable, LIMITS_QUERY, ORDERS_QUERY, PAIRS_QUERY, TRADES_QUERY, type Omitted } from './queries.ts'
import { createRecordCheck } from './record-check.ts'
import { toExecutedOrder, toListedPairs, toOpenTrade, toRestingOrder } from './records.ts'
import { pageOf, PairsPage, SubgraphLimit, SubgraphOrder, SubgraphPair, SubgraphTrade, type Meta } from './subgraph-schemas.ts'

/** The reads the endpoints need, converted to the service's records. Failures are 502 ServiceErrors. */
export interface IndexerClient {
  /** every pair of the chain, in pairIndex order */
  pairs(chainId: ChainId): Promise<ListedPair[]>
  /** every pair's trading state in the contracts' units, by pairIndex (the same read as `pairs`) */
  marketStates(chainId: ChainId): Promise<ReadonlyMap<string, PairMarketState>>
  /** a wallet's resting limit/stop orders, oldest first */
  restingOrders(query: LimitsQuery): Promise<RestingOrder[]>
  /** a wallet's open positions, oldest first */
  openTrades(query: TradesQuery): Promise<OpenTrade[]>
  /** a wallet's executed and cancelled orders, newest first */
  settledOrders(query: OrdersQuery): Promise<ExecutedOrder[]>
}

export type IndexerClientOptions = Omit<IndexerConfig, 'urls'> & {
  /** or the promise of them, for a source that is still starting (reads wait for it) */
  urls: IndexerUrls | Promise<IndexerUrls>
}

export interface IndexerClientDeps {
  logger: Logger
  metrics: Metrics
}

/** distinct answers kept per read; the oldest are dropped first */
const MAX_CACHED_ANSWERS = 1000

/** graph-node's refusal of a field the deployment lacks */
const MISSING_FIELD = /^Type `(\w+)` has no field `(\w+)`$/

type Document = (omitted: Omitted) => string

export function createIndexerClient(options: IndexerClientOptions, deps: IndexerClientDeps): IndexerClient {
  const { metrics } = deps
  const log = deps.logger.child({ module: 'indexer' })
  const lastUp = new Map<ChainId, boolean>()
  const records = createRecordCheck(log, metrics)
  /** per chain, the optional fields its deployment turned out to lack */
  const omittedFields = new Map<ChainId, Set<string>>()

  /** Notes a chain's health in the metrics, and in the log when it changes. */
  const recordOutcome = (chainId: ChainId, failure: IndexerFailure | undefined) => {
    const chain = String(chainId)
    metrics.indexerRequests.labels(chain, failure?.kind ?? 'ok').inc()
    metrics.indexerUp.labels(chain).set(failure ? 0 : 1)
    if (lastUp.get(chainId) === !failure) return
    lastUp.set(chainId, !failure)
    if (failure) log.warn({ chainId, reason: failure.kind, err: failure }, 'indexed data source failing')
    else log.info({ chainId }, 'indexed data source answering')
  }

  const recordLag = (chainId: ChainId, meta: Meta) => {
    const blockTimestamp = meta?.block.timestamp
    if (typeof blockTimestamp === 'number') {
      metrics.indexerLag.labels(String(chainId)).set(Math.max(0, Date.now() / 1000 - blockTimestamp))
    }
  }

  /**
   * The optional fields a refusal names as missing, once they are left out from then on; undefined
   * when the refusal is about something else (or about a field the read cannot do without).
   */
  function leaveOutMissing(chainId: ChainId, failure: IndexerFailure): string[] | undefined {
    const messages = Array.isArray(failure.cause) ? (failure.cause as unknown[]) : []
    const missing = messages
      .map((message) => MISSING_FIELD.exec(String(message)))
      .map((match) => (match ? `${match[1]}.${match[2]}` : undefined))
    if (missing.length === 0 || missing.some((field) => field === undefined || !isOmittable(field))) return undefined
    const omitted = omittedFields.get(chainId) ?? new Set()
    omittedFields.set(chainId, omitted)
    const fresh = (missing as string[]).filter((field) => !omitted.has(field))
    if (fresh.length === 0) return undefined
    for (const field of fresh) {
      omitted.add(field)
      metrics.indexerFieldsMissing.labels(String(chainId), field).set(1)
    }
    log.warn({ chainId, fields: fresh }, 'the subgraph deployment lacks fields the service reads; reading on without them (null)')
    return fresh
  }

  async function request<Schema extends z.ZodType<{ _meta: Meta }>>(
    chainId: ChainId,
    document: Document,
    variables: Record<string, unknown>,
    schema: Schema,
  ): Promise<z.infer<Schema>> {
    try {
      for (;;) {
        try {
          const parsed = schema.safeParse(
            await postGraphql(
              (await options.urls)[chainId],
              document(omittedFields.get(chainId) ?? new Set()),
              variables,
              options.timeoutMs,
            ),
          )
          if (!parsed.success) throw new IndexerFailure('invalid_response', 'answered in an unexpected shape', { cause: parsed.error })
          recordOutcome(chainId, undefined)
          recordLag(chainId, parsed.data._meta)
          return parsed.data
        } catch (error) {
          if (error instanceof IndexerFailure && error.kind === 'graphql_errors' && leaveOutMissing(chainId, error)) continue
          throw error
        }
      }
    } catch (error) {
      if (!(error instanceof IndexerFailure)) throw error
      recordOutcome(chainId, error)
      throw new ServiceError('upstream_unavailable', `the indexed data source of chain ${chainId} ${error.message}`, {
        cause: error,
        details: { chainId, reason: error.kind },
      })
    }
  }

  /** One read: a document whose answers are converted once and shared by identical calls. */
  function cachedRead<Schema extends z.ZodType<{ _meta: Meta }>, Result>(
    document: Document,
    schema: Schema,
    convert: (chainId: ChainId, data: z.infer<Schema>) => Result,
  ) {
    const cache = createCoalescingCache<Result>({ ttlMs: options.cacheMs, maxEntries: MAX_CACHED_ANSWERS })
    return (chainId: ChainId, variables: Record<string, unknown>): Promise<Result> =>
      cache.get(`${chainId} ${JSON.stringify(variables)}`, async () =>
        convert(chainId, await request(chainId, document, variables, schema)),
      )
  }

  const readPairs = cachedRead(PAIRS_QUERY, PairsPage, (chainId, data) => {
    const rows = records.keep(chainId, 'Pair', data.pairs, SubgraphPair)
    const vaultAssets = data.vault?.assets ?? null
    return { listed: toListedPairs(rows), states: new Map(rows.map((row) => [row.id, toMarketState(row, vaultAssets)])) }
  })
  const readLimits = cachedRead(LIMITS_QUERY, pageOf('limits'), (chainId, data) =>
    records.keep(chainId, 'Limit', data.limits, SubgraphLimit).map(toRestingOrder),
  )
  const readTrades = cachedRead(TRADES_QUERY, pageOf('trades'), (chainId, data) =>
    records.keep(chainId, 'Trade', data.trades, SubgraphTrade).map(toOpenTrade),
  )
  const readOrders = cachedRead(ORDERS_QUERY, pageOf('orders'), (chainId, data) =>
    records.keep(chainId, 'Order', data.orders, SubgraphOrder).map(toExecutedOrder),
  )

  // The source stores addresses lowercase; lowercasing here also lets both spellings share a cache entry.
  return {
    pairs: async (chainId) => (await readPairs(chainId, {})).listed,
    marketStates: async (chainId) => (await readPairs(chainId, {})).states,
    restingOrders: ({ chainId, trader, first, skip, since }) =>
      readLimits(chainId, {
        first,
        skip,
        where: { trader: trader.toLowerCase(), isActive: true, ...timeBound('initiatedAt_gt', since) },
      }),
    openTrades: ({ chainId, trader, first, skip, since }) =>
      readTrades(chainId, {
        first,
        skip,
        where: { trader: trader.toLowerCase(), isOpen: true, ...timeBound('timestamp_gt', since) },
      }),
    settledOrders: ({ chainId, trader, first, skip, since, before }) =>
      readOrders(chainId, {
        first,
        skip,
        where: {
          trader: trader.toLowerCase(),
          isPending: false,
          ...timeBound('executedAt_gt', since),
          ...timeBound('executedAt_lt', before),
        },
      }),
  }
}

/** A time-cursor filter, left out when the cursor is. BigInt filter values travel as text. */
function timeBound(filter: string, unixSeconds: number | undefined): Record<string, string> {
  return unixSeconds === undefined ? {} : { [filter]: String(unixSeconds) }
}
