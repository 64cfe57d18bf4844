import { ServiceError } from '../../kit/errors.ts'
import { pairByLegacySymbol } from '../../schemas/pairs.ts'

/** 404 for a pair symbol the price and depth endpoints do not know, naming the symbol a legacy spelling stands for. */
export function unknownPairError(symbol: string): ServiceError {
  const renamed = pairByLegacySymbol(symbol)
  const hint = renamed
    ? `"${symbol}" is the indexed source's spelling of ${renamed.symbol}; use ${renamed.symbol}`
    : `unknown pair "${symbol}"; symbols look like BTC-USD (see GET /v1/pairs)`
  return new ServiceError('not_found', hint, { details: { pair: symbol, ...(renamed ? { symbol: renamed.symbol } : {}) } })
}
