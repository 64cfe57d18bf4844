import { z } from 'zod'
import { ServiceError } from '../../kit/errors.ts'
import type { ChainId } from '../../schemas/common.ts'
import { pairByName, type Pair } from '../../schemas/pairs.ts'
import { unknownPairError } from '../http/unknown-pair.ts'
import type { IndexerClient } from '../indexer/indexer-client.ts'
import type { Materializer } from '../snapshot/materializer.ts'
import type { PairMarketState } from '../indexer/market-state.ts'
import type { LivePrice } from './depth-figures.ts'

// What the depth figures are computed from, each read where it lives: the pair listing, the live
// price row (materializer) and the pair's trading state (indexed source).

/** A listed pair by its symbol or legacy spelling. Unknown → 404. */
export function listedPair(name: string): Pair {
  const pair = pairByName(name)
  if (!pair) throw unknownPairError(name)
  return pair
}

const PriceFields = z.object({
  bid: z.number(),
  mid: z.number().positive(),
  ask: z.number(),
  timestampSeconds: z.number().int(),
})

/** The pair's live price; none yet → 503. */
export function livePrice(prices: Pick<Materializer, 'rowBody'>, pair: Pair): LivePrice {
  const row = prices.rowBody(pair.symbol)
  if (!row) {
    throw new ServiceError('no_ticks_yet', `no live price for ${pair.symbol} yet; depth and quotes are priced off it, retry shortly`, {
      details: { pair: pair.symbol },
    })
  }
  return PriceFields.parse(JSON.parse(row.toString()))
}

/** The pair's state on the chain's indexed source; a pair the source does not list has no ceiling. */
export async function marketState(indexer: Pick<IndexerClient, 'marketStates'>, chainId: ChainId, pair: Pair): Promise<PairMarketState> {
  return (await indexer.marketStates(chainId)).get(String(pair.id)) ?? unlisted(pair)
}

function unlisted(pair: Pair): PairMarketState {
  return {
    id: String(pair.id),
    longOI: null,
    shortOI: null,
    maxOI: 0n,
    maxLeverage: null,
    priceImpactK: null,
    netVolThreshold: null,
    decayRate: null,
    buyVolume: null,
    sellVolume: null,
    lastUpdateTimestamp: null,
    groupMaxCollateralP: null,
    groupCollateral: { long: null, short: null },
    vaultAssets: null,
  }
}

/** Spec 2.6: a pair without an open-interest ceiling has no depth yet. */
export function refuseUntradeable(pair: Pair, chainId: ChainId, state: PairMarketState): void {
  if (state.maxOI !== null && state.maxOI > 0n) return
  throw new ServiceError('not_tradeable', `${pair.symbol} is not tradeable yet: it has no open-interest ceiling on chain ${chainId}`, {
    details: { pair: pair.symbol, pairId: pair.id, chainId },
  })
}
