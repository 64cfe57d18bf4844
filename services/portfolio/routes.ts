import type { z } from 'zod'
import { LimitsQuery } from '../../schemas/limits.ts'
import { OrdersQuery } from '../../schemas/orders.ts'
import { PairsQuery } from '../../schemas/pair-list.ts'
import { TradesQuery } from '../../schemas/trades.ts'
import type { Route } from '../http/http-server.ts'
import { EncodedBody } from '../http/encoded-body.ts'
import { encodedJsonReply, jsonReply, type Reply } from '../http/reply.ts'
import type { IndexerClient } from '../indexer/indexer-client.ts'
import { parseQuery } from './query-params.ts'

/**
 * GET /v1/pairs, /v1/limits, /v1/trades and /v1/orders: reads from the indexed data source, all on
 * the one shared 'portfolio' budget (spec 4.5, 8).
 */
export function portfolioRoutes(indexer: IndexerClient): Route[] {
  // the indexer client hands out one list per chain while it is cached: one reply (and compression) per list
  const pairReplies = new WeakMap<object, { chainId: number; reply: Reply }>()
  return [
    {
      method: 'GET',
      path: '/v1/pairs',
      budget: 'portfolio',
      async handle({ query }) {
        const { chainId } = parseQuery(PairsQuery, query)
        const pairs = await indexer.pairs(chainId)
        let cached = pairReplies.get(pairs)
        if (cached?.chainId !== chainId) {
          cached = { chainId, reply: encodedJsonReply(EncodedBody.of(JSON.stringify({ chainId, count: pairs.length, pairs }))) }
          pairReplies.set(pairs, cached)
        }
        return cached.reply
      },
    },
    walletListRoute('/v1/limits', LimitsQuery, 'limits', indexer.restingOrders),
    walletListRoute('/v1/trades', TradesQuery, 'trades', indexer.openTrades),
    walletListRoute('/v1/orders', OrdersQuery, 'orders', indexer.settledOrders),
  ]
}

type WalletParams = { trader: string; chainId: number; first: number; skip: number }

/** A wallet list read: validate the query, read the records, wrap them in the envelope. */
function walletListRoute<Params extends WalletParams>(
  path: string,
  schema: z.ZodType<Params, unknown>,
  key: 'limits' | 'trades' | 'orders',
  read: (params: Params) => Promise<unknown[]>,
): Route {
  return {
    method: 'GET',
    path,
    budget: 'portfolio',
    async handle({ query }) {
      const params = parseQuery(schema, query)
      return walletList(params, key, await read(params))
    },
  }
}

/** The wallet-list envelope (spec 2.4): `{ trader, chainId, first, skip, count, <key> }`; addresses lowercase. */
function walletList(params: WalletParams, key: 'limits' | 'trades' | 'orders', records: unknown[]): Reply {
  const { trader, chainId, first, skip } = params
  return jsonReply(200, { trader: trader.toLowerCase(), chainId, first, skip, count: records.length, [key]: records })
}
