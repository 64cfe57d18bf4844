import type { Address, Hex } from 'viem'

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

export interface DevnetAccount {
  address: Address
  privateKey: Hex
}

export interface DevnetChain {
  chainId: number
  rpcUrl: string
  bundlerUrl: string
  entryPoint: Address
  accountFactory: Address
  contracts: VenueContracts
  /** False where USDC is a plain ERC-20 (chain 421614): partners approve TradingStorage themselves. */
  usdcHasPermit: boolean
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
