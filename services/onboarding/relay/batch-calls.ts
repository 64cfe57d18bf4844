import { encodeFunctionData, getAddress, parseSignature, size, type Address, type Hex } from 'viem'
import type { OnboardRequest } from '../../../schemas/onboarding.ts'
import type { VenueContracts } from '../chain/chain-config.ts'
import { permitUsdcAbi, tradingAbi } from '../../venue-contracts/abis.ts'

export type Part = 'permit' | 'delegation'

export interface Batch {
  calls: Array<{ to: Address; data: Hex }>
  /** what each call does: parts[i] for calls[i] */
  parts: Part[]
}

/** The posted parts as one atomic batch: USDC.permit(...), then Trading.setDelegateWithSignature(...). */
export function onboardingBatch(request: OnboardRequest, contracts: VenueContracts): Batch {
  const partner = getAddress(request.partner)
  const batch: Batch = { calls: [], parts: [] }
  if (request.permit) {
    batch.calls.push(permitCall(partner, request.permit, contracts))
    batch.parts.push('permit')
  }
  if (request.delegation) {
    batch.calls.push(delegationCall(partner, request.delegation, contracts))
    batch.parts.push('delegation')
  }
  return batch
}

/**
 * A 65-byte signature goes to `permit(…, v, r, s)`, which every ERC-2612 token has (USDC checks it by
 * ERC-1271 too when the owner is a contract); other contract-wallet signatures need USDC's `bytes` overload.
 */
function permitCall(owner: Address, permit: NonNullable<OnboardRequest['permit']>, contracts: VenueContracts) {
  const signature = permit.signature as Hex
  const head = [owner, contracts.tradingStorage, BigInt(permit.value), BigInt(permit.deadline)] as const
  const data =
    size(signature) === 65
      ? encodeFunctionData({ abi: permitUsdcAbi, functionName: 'permit', args: [...head, ...splitSignature(signature)] })
      : encodeFunctionData({ abi: permitUsdcAbi, functionName: 'permit', args: [...head, signature] })
  return { to: contracts.usdc, data }
}

function delegationCall(delegator: Address, delegation: NonNullable<OnboardRequest['delegation']>, contracts: VenueContracts) {
  const data = encodeFunctionData({
    abi: tradingAbi,
    functionName: 'setDelegateWithSignature',
    args: [
      delegator,
      getAddress(delegation.delegate),
      BigInt(delegation.nonce),
      BigInt(delegation.expiry),
      ...splitSignature(delegation.signature as Hex),
    ],
  })
  return { to: contracts.trading, data }
}

/** v (27 or 28), r, s of a 65-byte signature, whichever way it spells v. */
function splitSignature(signature: Hex): [number, Hex, Hex] {
  const { v, yParity, r, s } = parseSignature(signature)
  return [v === undefined ? 27 + yParity : Number(v), r, s]
}
