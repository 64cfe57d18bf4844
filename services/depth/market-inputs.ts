import { z } from 'zod'
import { ServiceError } from '../../kit/errors.ts'
import type { ChainId } from '../../schemas/common.ts'
import { pairBySymbol, type Pair } from '../../schemas/pairs.ts'
import type { IndexerClient } from '../indexer/indexer-client.ts'
import type { Materializer } from '../snapshot/materializer.ts'
import type { LivePrice, OpenInterest } from './depth-figures.ts'

// What the depth figures are computed from, each read where it lives: the pair listing, the live
// price row (materializer) and the pair's open interest and ceiling (indexed source).

/** A listed pair by the price endpoints' symbol; legacy spellings are not symbols. Unknown → 404. */
export function listedPair(symbol: string): Pair {
  const pair = pairBySymbol(symbol)
  if (!pair) {
    throw new ServiceError('not_found', `unknown pair "${symbol}"; symbols look like BTC-USD (see GET /v1/pairs)`, {
      details: { pair: symbol },
    })
  }
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

/** The pair's open interest and ceiling on the chain; a pair the source does not list has no ceiling. */
export async function openInterest(indexer: Pick<IndexerClient, 'pairs'>, chainId: ChainId, pair: Pair): Promise<OpenInterest> {
  const indexed = (await indexer.pairs(chainId)).find((candidate) => candidate.id === String(pair.id))
  if (!indexed) return { maxUsd: 0, units: { long: 0, short: 0 } }
  return { maxUsd: indexed.maxOI, units: { long: indexed.longOI, short: indexed.shortOI } }
}

/** Spec 2.6: a pair without an open-interest ceiling has no depth yet. */
export function refuseUntradeable(pair: Pair, chainId: ChainId, interest: OpenInterest): void {
  if (interest.maxUsd > 0) return
  throw new ServiceError('not_tradeable', `${pair.symbol} is not tradeable yet: it has no open-interest ceiling on chain ${chainId}`, {
    details: { pair: pair.symbol, pairId: pair.id, chainId },
  })
}
