import type { Address, Hex } from 'viem'
import type { EntryPointVersion } from './entry-points.ts'

// The deployment record: where the venue's contracts, the EntryPoint and the bundler are on each chain, as a
// development chain writes it (deploy/devnet) and DEPLOYMENT_FILE hands it to the intake and the relayer.

/** The four contracts onboarding touches on each chain. */
export interface VenueContracts {
  trading: Address
  /** The spender of the partner's USDC permit or approve. */
  tradingStorage: Address
  usdc: Address
  /** VenueAtomicTrading, the delegate partners sign for. */
  wrapper: Address
}

/**
 * The EIP-712 domain `name` and `version` of the delegation partners sign, and its primary type's name. The spec
 * writes `Venue` where a deployment has the protocol's own name (a published `Delegatable` signs
 * `{ name: <protocol>, version: "1" }` and `Delegation(...)`), so these are per-chain configuration.
 */
export interface DelegationDomain {
  name: string
  version: string
  typeName: string
}

/** The spec's names (4.1): `{ name: "Venue", version: "1" }` and `VenueDelegation(...)`. */
export const SPEC_DELEGATION_DOMAIN: DelegationDomain = { name: 'Venue', version: '1', typeName: 'VenueDelegation' }

export interface DevnetAccount {
  address: Address
  privateKey: Hex
}

export interface DevnetChain {
  chainId: number
  rpcUrl: string
  bundlerUrl: string
  entryPoint: Address
  entryPointVersion: EntryPointVersion
  accountFactory: Address
  contracts: VenueContracts
  /** False where USDC is a plain ERC-20 (chain 421614): partners approve TradingStorage themselves. */
  usdcHasPermit: boolean
  /** the names Trading was deployed with */
  delegationDomain: DelegationDomain
  /** a verifying paymaster that sponsors the relayer's operations, where the chain has one */
  paymaster?: Address
}

export interface DevnetDeployment {
  chains: DevnetChain[]
  relayer: {
    address: Address
    smartAccountAddress: Address
    /** A public anvil test key: valid on this devnet only. */
    devnetRelayerPrivateKey: Hex
  }
  demoPartner: DevnetAccount
}
