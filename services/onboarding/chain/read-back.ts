import { getAddress, isAddressEqual, type Address, type PublicClient } from 'viem'
import type { OnboardingState } from '../../../schemas/onboarding.ts'
import type { ChainConfig } from './chain-config.ts'
import { permitUsdcAbi, tradingAbi } from '../../venue-contracts/abis.ts'

/**
 * Spec 2.5, read from chain: the partner's delegate on Trading and the allowance TradingStorage has on
 * the partner's USDC. Delegation is missing unless the delegate is the wrapper; allowance is missing
 * while it is zero.
 */
export async function readOnboardingState(client: PublicClient, chain: ChainConfig, partner: Address): Promise<OnboardingState> {
  const { trading, usdc, tradingStorage, wrapper } = chain.contracts
  const [delegate, allowance] = await Promise.all([
    client.readContract({ address: trading, abi: tradingAbi, functionName: 'delegations', args: [partner] }),
    client.readContract({ address: usdc, abi: permitUsdcAbi, functionName: 'allowance', args: [partner, tradingStorage] }),
  ])
  const missing: OnboardingState['missing'] = [
    ...(isAddressEqual(delegate, wrapper) ? [] : ['delegation' as const]),
    ...(allowance === 0n ? ['allowance' as const] : []),
  ]
  return { onboarded: missing.length === 0, missing, delegate: getAddress(delegate), allowance: allowance.toString() }
}
