// The data set of one chain, generated once per (chain, seed) and then shared: the server reads it and
// tests use it to compute expected answers.

import { blockNumberAt } from '../chain-head.ts'
import { ENTITIES, type EntityName } from '../entities.ts'
import type { Row } from '../filters.ts'
import type { ChainId, SeedData } from '../rows.ts'
import { generateActivity } from './activity.ts'
import { buildFees, buildGroups, buildPairs } from './pairs.ts'
import { createRandom } from './random.ts'
import { SEED_HEAD_TIMESTAMP } from './timeline.ts'
import { buildMetaData, buildUsers, buildVault, countOpenPerPair, sumGroupCollateral } from './totals.ts'
import { buildVaultSettlements } from './vault-settlements.ts'
import { traderProfiles } from './traders.ts'

export const DEFAULT_SEED = 1
/** settled vault settlements (a day apart) before the open one */
const SETTLEMENTS: Readonly<Record<ChainId, number>> = { 42161: 60, 421614: 20 }

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
  const blockAt = (timestamp: bigint) => BigInt(blockNumberAt(chainId, Number(timestamp)))
  const pairs = buildPairs(createRandom(seed, chainId, 'pairs'), blockNumberAt(chainId, SEED_HEAD_TIMESTAMP))
  const profiles = traderProfiles(chainId)
  const traders = profiles.map((profile) => profile.address)
  const activity = generateActivity(createRandom(seed, chainId, 'activity'), profiles, pairs.tradeable, blockAt)
  const groups = buildGroups()
  countOpenPerPair(pairs.rows, activity)
  sumGroupCollateral(groups, pairs.rows, activity)
  const users = buildUsers(traders, activity)
  const vault = buildVault()
  const cycle = buildVaultSettlements(createRandom(seed, chainId, 'vault'), traders, SETTLEMENTS[chainId], vault)
  const seeded = {
    groups,
    fees: buildFees(),
    pairs: pairs.rows,
    ...activity,
    metaDatas: [buildMetaData(activity, users.length)],
    users,
    vaults: [{ ...vault, ...cycle.vault }],
    settlements: cycle.settlements,
    depositRequests: cycle.depositRequests,
    withdrawRequests: cycle.withdrawRequests,
    mmactions: cycle.mmactions,
    lpShares: cycle.lpShares,
  }
  const byEntity: Partial<Record<EntityName, readonly Row[]>> = {
    Group: seeded.groups,
    Fee: seeded.fees,
    Pair: seeded.pairs,
    Trade: seeded.trades,
    Limit: seeded.limits,
    Order: seeded.orders,
    MetaData: seeded.metaDatas,
    User: seeded.users,
    Vault: seeded.vaults,
    Settlement: seeded.settlements,
    DepositRequest: seeded.depositRequests,
    WithdrawRequest: seeded.withdrawRequests,
    MMAction: seeded.mmactions,
    LpShare: seeded.lpShares,
  }
  const rows = Object.fromEntries(ENTITIES.map((spec) => [spec.name, byEntity[spec.name] ?? []])) as Record<EntityName, readonly Row[]>
  return { chainId, traders, ...seeded, changedAtBlock: blockNumberAt(chainId, SEED_HEAD_TIMESTAMP), rows }
}
