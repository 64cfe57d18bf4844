import type { Address } from 'viem'
import type { PermitDomain, VenueContracts } from './chain-config.ts'

// The EIP-712 messages partners sign (spec 4.1), built in one place for signing and for checking.

export const venueDelegationTypes = {
  VenueDelegation: [
    { name: 'delegator', type: 'address' },
    { name: 'delegate', type: 'address' },
    { name: 'nonce', type: 'uint256' },
    { name: 'expiry', type: 'uint256' },
  ],
} as const

export const permitTypes = {
  Permit: [
    { name: 'owner', type: 'address' },
    { name: 'spender', type: 'address' },
    { name: 'value', type: 'uint256' },
    { name: 'nonce', type: 'uint256' },
    { name: 'deadline', type: 'uint256' },
  ],
} as const

interface VenueChain {
  chainId: number
  contracts: VenueContracts
}

/** Verified by Trading, for the wrapper as delegate. */
export function delegationTypedData(chain: VenueChain, message: { delegator: Address; delegate: Address; nonce: bigint; expiry: bigint }) {
  return {
    domain: { name: 'Venue', version: '1', chainId: chain.chainId, verifyingContract: chain.contracts.trading },
    types: venueDelegationTypes,
    primaryType: 'VenueDelegation',
    message,
  } as const
}

/** Verified by USDC, with TradingStorage (not Trading) as spender. */
export function permitTypedData(
  chain: VenueChain,
  domain: PermitDomain,
  message: { owner: Address; value: bigint; nonce: bigint; deadline: bigint },
) {
  return {
    domain: { ...domain, chainId: chain.chainId, verifyingContract: chain.contracts.usdc },
    types: permitTypes,
    primaryType: 'Permit',
    message: { ...message, spender: chain.contracts.tradingStorage },
  } as const
}
