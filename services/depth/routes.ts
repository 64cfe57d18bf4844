import { DepthQuery, QuoteQuery } from '../../schemas/depth.ts'
import type { ChainId } from '../../schemas/common.ts'
import type { Pair } from '../../schemas/pairs.ts'
import type { Route } from '../http/http-server.ts'
import { jsonReply } from '../http/reply.ts'
import type { IndexerClient } from '../indexer/indexer-client.ts'
import type { PairMarketState } from '../indexer/market-state.ts'
import { parseQuery } from '../portfolio/query-params.ts'
import type { Materializer } from '../snapshot/materializer.ts'
import { depthBook, quote, type PairMarket } from './depth-figures.ts'
import { DEFAULT_DEPTH_LEVELS } from './depth-levels.ts'
import { listedPair, livePrice, marketState, refuseUntradeable } from './market-inputs.ts'

export interface DepthSources {
  indexer: Pick<IndexerClient, 'marketStates'>
  prices: Pick<Materializer, 'rowBody'>
  /** the notional sizes of the depth levels, USD; depth-levels.json when omitted */
  levelsUsd?: readonly number[]
  /** Unix seconds, for the decay of the recorded volume; the wall clock when omitted */
  now?: () => number
}

/** GET /v1/depth/{pair} and GET /v1/depth/{pair}/quote, on the one 'depth' budget. */
export function depthRoutes(sources: DepthSources): Route[] {
  const levelsUsd = sources.levelsUsd ?? DEFAULT_DEPTH_LEVELS
  const now = sources.now ?? (() => Date.now() / 1000)
  const market = (pair: Pair, chainId: ChainId, state: PairMarketState): PairMarket => ({
    symbol: pair.symbol,
    chainId,
    price: livePrice(sources.prices, pair),
    state,
    now: now(),
  })

  return [
    {
      method: 'GET',
      path: '/v1/depth/:pair',
      budget: 'depth',
      async handle({ params, query }) {
        const pair = listedPair(params.pair!)
        const { chainId } = parseQuery(DepthQuery, query)
        const state = await marketState(sources.indexer, chainId, pair)
        refuseUntradeable(pair, chainId, state)
        return jsonReply(200, depthBook(market(pair, chainId, state), levelsUsd))
      },
    },
    {
      method: 'GET',
      path: '/v1/depth/:pair/quote',
      budget: 'depth',
      async handle({ params, query }) {
        const pair = listedPair(params.pair!)
        const { chainId, side, notionalUsd } = parseQuery(QuoteQuery, query)
        const state = await marketState(sources.indexer, chainId, pair)
        return jsonReply(200, quote(market(pair, chainId, state), side, notionalUsd))
      },
    },
  ]
}
