// The stored entities, in the indexed source's on-chain units (see seed/units.ts). A relation field
// holds the id of the row it points to (`pair: "5"`); the GraphQL layer resolves it. Addresses and
// hashes are lowercase, as The Graph stores Bytes. Row types come from the entity specs (entities.ts).

import type { Row } from './filters.ts'
import type {
  DepositRequestRow,
  EntityName,
  FeeRow,
  GroupRow,
  LimitRow,
  LpShareRow,
  MetaDataRow,
  MMActionRow,
  OrderRow,
  PairRow,
  SettlementRow,
  TradeRow,
  UserRow,
  VaultRow,
  WithdrawRequestRow,
} from './entities.ts'

export const CHAIN_IDS = [42161, 421614] as const
export type ChainId = (typeof CHAIN_IDS)[number]

export interface SeedData {
  chainId: ChainId
  /** every trader with rows on this chain, lowercase */
  traders: readonly string[]
  groups: readonly GroupRow[]
  fees: readonly FeeRow[]
  pairs: readonly PairRow[]
  trades: readonly TradeRow[]
  limits: readonly LimitRow[]
  orders: readonly OrderRow[]
  metaDatas: readonly MetaDataRow[]
  users: readonly UserRow[]
  vaults: readonly VaultRow[]
  /** the vault's settlements, oldest first */
  settlements: readonly SettlementRow[]
  depositRequests: readonly DepositRequestRow[]
  withdrawRequests: readonly WithdrawRequestRow[]
  mmactions: readonly MMActionRow[]
  lpShares: readonly LpShareRow[]
  /** the block every row was last changed at (the data's last block), for `_change_block` */
  changedAtBlock: number
  /** every entity's rows as the server holds them (entities without seeded rows are empty) */
  rows: Readonly<Record<EntityName, readonly Row[]>>
}
