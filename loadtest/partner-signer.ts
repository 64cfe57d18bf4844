import { type Address, type LocalAccount, type PublicClient } from 'viem'
import type { ChainId } from '../schemas/common.ts'
import type { OnboardRequest } from '../schemas/onboarding.ts'
import type { DelegationDomain } from '../services/venue-contracts/deployment-record.ts'
import { type PermitDomain, type VenueContracts, onboardingTools } from '../services/onboarding/index.ts'
import { permitUsdcAbi, tradingAbi } from '../services/venue-contracts/abis.ts'

const { readPermitDomain, delegationTypedData, permitTypedData } = await onboardingTools()

// The partner's side of POST /v1/onboard: read what must be signed, sign offline, build the body.
// Used by the demo script, the bench and the tests.

export interface PartnerChain {
  chainId: number
  contracts: VenueContracts
  /** the names Trading checks the delegation under */
  delegationDomain: DelegationDomain
}

export interface SignOnboardingOptions {
  chain: PartnerChain
  /** reads the current nonces and the token's permit domain, unless they are given */
  client: PublicClient
  signer: LocalAccount
  /** the address onboarded: the signer's own, or a contract wallet's whose owner signs for it */
  partner?: Address
  /** omit to leave the delegation out; `nonce`, `delegate` and `domain` only to build wrong ones */
  delegation?: { expiry: bigint; nonce?: bigint; delegate?: Address; domain?: DelegationDomain }
  /** omit to leave the permit out */
  permit?: { value: bigint; deadline: bigint; nonce?: bigint; domain?: PermitDomain }
}

export async function signOnboarding(options: SignOnboardingOptions): Promise<OnboardRequest> {
  const { chain, client, signer } = options
  const partner = options.partner ?? signer.address
  const request: OnboardRequest = { chainId: chain.chainId as ChainId, partner }
  if (options.delegation) {
    const { expiry, delegate = chain.contracts.wrapper } = options.delegation
    const nonce =
      options.delegation.nonce ??
      (await client.readContract({ address: chain.contracts.trading, abi: tradingAbi, functionName: 'delegatableNonces', args: [partner] }))
    const signed = { ...chain, delegationDomain: options.delegation.domain ?? chain.delegationDomain }
    const signature = await signer.signTypedData(delegationTypedData(signed, { delegator: partner, delegate, nonce, expiry }))
    request.delegation = { delegate, nonce: String(nonce), expiry: String(expiry), signature }
  }
  if (options.permit) {
    const { value, deadline } = options.permit
    const [domain, nonce] = await Promise.all([
      options.permit.domain ?? readPermitDomain(client, chain.contracts.usdc),
      options.permit.nonce ??
        client.readContract({ address: chain.contracts.usdc, abi: permitUsdcAbi, functionName: 'nonces', args: [partner] }),
    ])
    const signature = await signer.signTypedData(permitTypedData(chain, domain, { owner: partner, value, nonce, deadline }))
    request.permit = { value: String(value), nonce: String(nonce), deadline: String(deadline), signature }
  }
  return request
}

/** Unix seconds `seconds` from now by the chain's clock, which is what expiry and deadline are compared with. */
export async function chainTimePlus(client: PublicClient, seconds: number): Promise<bigint> {
  const block = await client.getBlock()
  return block.timestamp + BigInt(seconds)
}
