// The data set of one chain, generated once per (chain, seed) and then shared: the server reads it and
// tests use it to compute expected answers.

import type { ChainId, SeedData } from '../rows.ts'
import { generateActivity } from './activity.ts'
import { buildGroups, buildPairs } from './pairs.ts'
import { createRandom } from './random.ts'
import { traderProfiles } from './traders.ts'

export const DEFAULT_SEED = 1

const generated = new Map<string, SeedData>()

export function seedData(chainId: ChainId, seed: number = DEFAULT_SEED): SeedData {
  const key = `${chainId}:${seed}`
  let data = generated.get(key)
  if (!data) {
    data = buildSeedData(chainId, seed)
    generated.set(key, data)
  }
  return data
}

/** A fresh, uncached build; the same (chain, seed) always builds the same data. */
export function buildSeedData(chainId: ChainId, seed: number): SeedData {
  const pairs = buildPairs(createRandom(seed, chainId, 'pairs'))
  const profiles = traderProfiles(chainId)
  const activity = generateActivity(createRandom(seed, chainId, 'activity'), profiles, pairs.tradeable)
  return {
    chainId,
    traders: profiles.map((profile) => profile.address),
    groups: buildGroups(),
    pairs: pairs.rows,
    ...activity,
  }
}
