import type { Address, PublicClient } from 'viem'
import type { PermitDomain } from './chain-config.ts'
import { permitUsdcAbi } from '../../venue-contracts/abis.ts'

/** USDC's EIP-712 name and version, read from the token: they differ between deployments. */
export async function readPermitDomain(client: PublicClient, usdc: Address): Promise<PermitDomain> {
  const token = { address: usdc, abi: permitUsdcAbi } as const
  const [name, version] = await Promise.all([
    client.readContract({ ...token, functionName: 'name' }),
    client.readContract({ ...token, functionName: 'version' }),
  ])
  return { name, version }
}
