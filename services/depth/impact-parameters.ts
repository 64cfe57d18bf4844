import { readFileSync } from 'node:fs'
import { z } from 'zod'
import { pairBySymbol, type AssetClass, type Pair } from '../../schemas/pairs.ts'
import type { ImpactParameters } from './impact-model.ts'

// The per-pair parameters of the impact model: defaults per asset class, overrides per pair symbol,
// and the notional sizes of the depth levels. They live in impact-parameters.json and are checked
// when this module loads, so a bad edit stops the start rather than a request.

const Parameters = z.strictObject({
  netVolThresholdUsd: z.number().nonnegative(),
  priceImpactK: z.number().nonnegative(),
})

const ASSET_CLASSES = ['crypto', 'fx', 'metal', 'energy', 'index', 'stock'] as const satisfies readonly AssetClass[]

const DepthParametersFile = z.strictObject({
  /** notional sizes of the depth levels, USD, ascending */
  levelsUsd: z
    .array(z.number().positive())
    .min(1)
    .refine((sizes) => sizes.every((size, index) => index === 0 || size > sizes[index - 1]!), 'must be ascending'),
  assetClasses: z.record(z.enum(ASSET_CLASSES), Parameters),
  /** overrides by pair symbol */
  pairs: z
    .record(z.string(), Parameters)
    .refine(
      (overrides) => Object.keys(overrides).every((symbol) => pairBySymbol(symbol)),
      'keys must be listed pair symbols, such as BTC-USD',
    ),
})
export type DepthParameters = z.infer<typeof DepthParametersFile>

export function loadDepthParameters(file: URL): DepthParameters {
  const parsed = DepthParametersFile.safeParse(JSON.parse(readFileSync(file, 'utf8')))
  if (!parsed.success) throw new Error(`invalid depth parameters in ${file.pathname}: ${z.prettifyError(parsed.error)}`)
  return parsed.data
}

export const DEFAULT_DEPTH_PARAMETERS = loadDepthParameters(new URL('./impact-parameters.json', import.meta.url))

/** The pair's own parameters if it has any, else its asset class's. */
export function impactParametersFor(parameters: DepthParameters, pair: Pair): ImpactParameters {
  return parameters.pairs[pair.symbol] ?? parameters.assetClasses[pair.assetClass]
}
