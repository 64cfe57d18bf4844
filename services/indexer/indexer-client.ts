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
import { LIMITS_QUERY, ORDERS_QUERY, PAIRS_QUERY, TRADES_QUERY } from './queries.ts'
import { toExecutedOrder, toListedPairs, toOpenTrade, toRestingOrder } from './records.ts'
import { LimitsData, OrdersData, PairsData, TradesData, type Meta } from './subgraph-schemas.ts'

/** The reads the endpoints need, converted to the service's records. Failures are 502 ServiceErrors. */
export interface IndexerClient {
  /** every pair of the chain, in pairIndex order */
  pairs(chainId: ChainId): Promise<ListedPair[]>
  /** a wallet's resting limit/stop orders, oldest first */
  restingOrders(query: LimitsQuery): Promise<RestingOrder[]>
  /** a wallet's open positions, oldest first */
  openTrades(query: TradesQuery): Promise<OpenTrade[]>
  /** a wallet's executed and cancelled orders, newest first */
  settledOrders(query: OrdersQuery): Promise<ExecutedOrder[]>
}

export type IndexerClientOptions = Omit<IndexerConfig, 'urls'> & { urls: IndexerUrls }

export interface IndexerClientDeps {
  logger: Logger
  metrics: Metrics
}

/** distinct answers kept per read; the oldest are dropped first */
const MAX_CACHED_ANSWERS = 1000

export function createIndexerClient(options: IndexerClientOptions, deps: IndexerClientDeps): IndexerClient {
  const { metrics } = deps
  const log = deps.logger.child({ module: 'indexer' })
  const lastUp = new Map<ChainId, boolean>()

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

  async function request<Schema extends z.ZodType<{ _meta: Meta }>>(
    chainId: ChainId,
    document: string,
    variables: Record<string, unknown>,
    schema: Schema,
  ): Promise<z.infer<Schema>> {
    try {
      const parsed = schema.safeParse(await postGraphql(options.urls[chainId], document, variables, options.timeoutMs))
      if (!parsed.success) throw new IndexerFailure('invalid_response', 'answered in an unexpected shape', { cause: parsed.error })
      recordOutcome(chainId, undefined)
      recordLag(chainId, parsed.data._meta)
      return parsed.data
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
    document: string,
    schema: Schema,
    convert: (data: z.infer<Schema>) => Result,
  ) {
    const cache = createCoalescingCache<Result>({ ttlMs: options.cacheMs, maxEntries: MAX_CACHED_ANSWERS })
    return (chainId: ChainId, variables: Record<string, unknown>): Promise<Result> =>
      cache.get(`${chainId} ${JSON.stringify(variables)}`, async () => convert(await request(chainId, document, variables, schema)))
  }

  const readPairs = cachedRead(PAIRS_QUERY, PairsData, (data) => toListedPairs(data.pairs))
  const readLimits = cachedRead(LIMITS_QUERY, LimitsData, (data) => data.limits.map(toRestingOrder))
  const readTrades = cachedRead(TRADES_QUERY, TradesData, (data) => data.trades.map(toOpenTrade))
  const readOrders = cachedRead(ORDERS_QUERY, OrdersData, (data) => data.orders.map(toExecutedOrder))

  // The source stores addresses lowercase; lowercasing here also lets both spellings share a cache entry.
  return {
    pairs: (chainId) => readPairs(chainId, {}),
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
