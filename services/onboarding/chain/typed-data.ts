import { keccak256, stringToHex, type Address, type TypedDataDomain } from 'viem'
import type { DelegationDomain, VenueContracts } from '../../venue-contracts/deployment-record.ts'
import type { PermitDomain } from './chain-config.ts'

// The EIP-712 messages partners sign (spec 4.1), built in one place for signing and for checking.

const delegationFields = [
  { name: 'delegator', type: 'address' },
  { name: 'delegate', type: 'address' },
  { name: 'nonce', type: 'uint256' },
  { name: 'expiry', type: 'uint256' },
] as const

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

/**
 * Verified by Trading, for the wrapper as delegate, under the deployment's domain name and version and type
 * name (the spec's `Venue`, `1`, `VenueDelegation` by default).
 */
export function delegationTypedData(
  chain: VenueChain & { delegationDomain: DelegationDomain },
  message: { delegator: Address; delegate: Address; nonce: bigint; expiry: bigint },
) {
  const { name, version, typeName } = chain.delegationDomain
  return {
    domain: { name, version, chainId: chain.chainId, verifyingContract: chain.contracts.trading } satisfies TypedDataDomain,
    types: { [typeName]: delegationFields },
    primaryType: typeName,
    message,
  }
}

/** What Trading's DELEGATION_TYPEHASH() must be for a type name. */
export function delegationTypeHash(typeName: string) {
  const fields = delegationFields.map((field) => `${field.type} ${field.name}`).join(',')
  return keccak256(stringToHex(`${typeName}(${fields})`))
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
