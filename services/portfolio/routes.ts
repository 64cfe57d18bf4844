import { LimitsQuery } from '../../schemas/limits.ts'
import { OrdersQuery } from '../../schemas/orders.ts'
import { PairsQuery } from '../../schemas/pair-list.ts'
import { TradesQuery } from '../../schemas/trades.ts'
import type { Route } from '../http/http-server.ts'
import { jsonReply, type Reply } from '../http/reply.ts'
import type { IndexerClient } from '../indexer/indexer-client.ts'
import { parseQuery } from './query-params.ts'

/**
 * GET /v1/pairs, /v1/limits, /v1/trades and /v1/orders: reads from the indexed data source, all on
 * the one shared 'portfolio' budget (spec 4.5, 8).
 */
export function portfolioRoutes(indexer: IndexerClient): Route[] {
  return [
    {
      method: 'GET',
      path: '/v1/pairs',
      budget: 'portfolio',
      async handle({ query }) {
        const { chainId } = parseQuery(PairsQuery, query)
        const pairs = await indexer.pairs(chainId)
        return jsonReply(200, { chainId, count: pairs.length, pairs })
      },
    },
    {
      method: 'GET',
      path: '/v1/limits',
      budget: 'portfolio',
      async handle({ query }) {
        const params = parseQuery(LimitsQuery, query)
        return walletList(params, 'limits', await indexer.restingOrders(params))
      },
    },
    {
      method: 'GET',
      path: '/v1/trades',
      budget: 'portfolio',
      async handle({ query }) {
        const params = parseQuery(TradesQuery, query)
        return walletList(params, 'trades', await indexer.openTrades(params))
      },
    },
    {
      method: 'GET',
      path: '/v1/orders',
      budget: 'portfolio',
      async handle({ query }) {
        const params = parseQuery(OrdersQuery, query)
        return walletList(params, 'orders', await indexer.settledOrders(params))
      },
    },
  ]
}

/** The wallet-list envelope (spec 2.4): `{ trader, chainId, first, skip, count, <key> }`; addresses lowercase. */
function walletList(
  params: { trader: string; chainId: number; first: number; skip: number },
  key: 'limits' | 'trades' | 'orders',
  records: unknown[],
): Reply {
  const { trader, chainId, first, skip } = params
  return jsonReply(200, { trader: trader.toLowerCase(), chainId, first, skip, count: records.length, [key]: records })
}
