import { DepthQuery, QuoteQuery } from '../../schemas/depth.ts'
import type { ChainId } from '../../schemas/common.ts'
import type { Pair } from '../../schemas/pairs.ts'
import type { Route } from '../http/http-server.ts'
import { jsonReply } from '../http/reply.ts'
import type { IndexerClient } from '../indexer/indexer-client.ts'
import { parseQuery } from '../portfolio/query-params.ts'
import type { Materializer } from '../snapshot/materializer.ts'
import { depthBook, quote, type OpenInterest, type PairMarket } from './depth-figures.ts'
import { DEFAULT_DEPTH_PARAMETERS, impactParametersFor, type DepthParameters } from './impact-parameters.ts'
import { listedPair, livePrice, openInterest, refuseUntradeable } from './market-inputs.ts'

export interface DepthSources {
  indexer: Pick<IndexerClient, 'pairs'>
  prices: Pick<Materializer, 'rowBody'>
  /** the model's parameters and depth levels; impact-parameters.json when omitted */
  parameters?: DepthParameters
}

/** GET /v1/depth/{pair} and GET /v1/depth/{pair}/quote, on the one 'depth' budget. */
export function depthRoutes(sources: DepthSources): Route[] {
  const parameters = sources.parameters ?? DEFAULT_DEPTH_PARAMETERS
  const market = (pair: Pair, chainId: ChainId, interest: OpenInterest): PairMarket => ({
    symbol: pair.symbol,
    chainId,
    price: livePrice(sources.prices, pair),
    openInterest: interest,
    parameters: impactParametersFor(parameters, pair),
  })

  return [
    {
      method: 'GET',
      path: '/v1/depth/:pair',
      budget: 'depth',
      async handle({ params, query }) {
        const pair = listedPair(params.pair!)
        const { chainId } = parseQuery(DepthQuery, query)
        const interest = await openInterest(sources.indexer, chainId, pair)
        refuseUntradeable(pair, chainId, interest)
        return jsonReply(200, depthBook(market(pair, chainId, interest), parameters.levelsUsd))
      },
    },
    {
      method: 'GET',
      path: '/v1/depth/:pair/quote',
      budget: 'depth',
      async handle({ params, query }) {
        const pair = listedPair(params.pair!)
        const { chainId, side, notionalUsd } = parseQuery(QuoteQuery, query)
        const interest = await openInterest(sources.indexer, chainId, pair)
        return jsonReply(200, quote(market(pair, chainId, interest), side, notionalUsd))
      },
    },
  ]
}
