import { createSmartAccountClient } from 'permissionless'
import { toSimpleSmartAccount } from 'permissionless/accounts'
import { createPimlicoClient } from 'permissionless/clients/pimlico'
import { type Address, type Hex, type LocalAccount, createPublicClient, encodeFunctionData, http, parseSignature, size } from 'viem'
import type { UserOperationReceipt } from 'viem/account-abstraction'
import { privateKeyToAccount } from 'viem/accounts'
import { permitUsdcAbi, tradingAbi } from '../../../../services/venue-contracts/abis.ts'
import { DEVNET_POLLING_INTERVAL_MS, devnetChain } from '../../clients.ts'
import { SPEC_DELEGATION_DOMAIN, type DevnetChain } from '../../../../services/venue-contracts/deployment-record.ts'
import { delegationTypedData, permitTypedData } from '../../../../services/onboarding/typed-data.ts'

// What the onboarding relay does, reduced to its on-chain part: read what partners must sign, and relay their
// signatures from the service's smart account as one user operation.

/** The `permit` part of an onboarding request. */
export interface SignedPermit {
  owner: Address
  value: bigint
  nonce: bigint
  deadline: bigint
  signature: Hex
}

/** The `delegation` part of an onboarding request. */
export interface SignedDelegation {
  delegator: Address
  delegate: Address
  nonce: bigint
  expiry: bigint
  signature: Hex
}

export interface BatchCall {
  to: Address
  data: Hex
}

export type Relayer = Awaited<ReturnType<typeof createRelayer>>

/** The service's side: its SimpleAccount v0.8, owned by `ownerPrivateKey`, sending through the chain's bundler. */
export async function createRelayer(chain: DevnetChain, ownerPrivateKey: Hex) {
  const viemChain = devnetChain(chain.chainId, chain.rpcUrl)
  const entryPoint = { address: chain.entryPoint, version: '0.8' } as const
  const publicClient = createPublicClient({
    chain: viemChain,
    transport: http(chain.rpcUrl),
    pollingInterval: DEVNET_POLLING_INTERVAL_MS,
  })
  const smartAccount = await toSimpleSmartAccount({
    client: publicClient,
    owner: privateKeyToAccount(ownerPrivateKey),
    entryPoint,
  })
  const pimlicoClient = createPimlicoClient({ transport: http(chain.bundlerUrl), entryPoint })
  const smartAccountClient = createSmartAccountClient({
    account: smartAccount,
    chain: viemChain,
    bundlerTransport: http(chain.bundlerUrl),
    pollingInterval: DEVNET_POLLING_INTERVAL_MS,
    // Alto refuses fees below its own quote, which the node's fee estimate does not necessarily meet.
    userOperation: { estimateFeesPerGas: async () => (await pimlicoClient.getUserOperationGasPrice()).fast },
  })
  return { publicClient, smartAccount, smartAccountClient }
}

export interface GasLimits {
  callGasLimit: bigint
  verificationGasLimit: bigint
  preVerificationGas: bigint
}

/**
 * Generous fixed limits (enough to deploy the account too), for sending an operation whose execution reverts:
 * gas estimation would refuse it.
 */
export const gasLimitsWithoutEstimation: GasLimits = {
  callGasLimit: 500_000n,
  verificationGasLimit: 600_000n,
  preVerificationGas: 100_000n,
}

/** Sends one user operation with these calls (estimating gas unless `gasLimits` is given) and waits for it. */
export async function relay(relayer: Relayer, calls: BatchCall[], gasLimits?: GasLimits): Promise<UserOperationReceipt> {
  const hash = await relayer.smartAccountClient.sendUserOperation({ calls, ...gasLimits })
  return relayer.smartAccountClient.waitForUserOperationReceipt({ hash })
}

/** Signs an ERC-2612 permit for TradingStorage, with the EIP-712 name and version read from the token. */
export async function signPermit(
  relayer: Relayer,
  chain: DevnetChain,
  signer: LocalAccount,
  { owner, value, deadline }: { owner: Address; value: bigint; deadline: bigint },
): Promise<SignedPermit> {
  const token = { address: chain.contracts.usdc, abi: permitUsdcAbi } as const
  const [name, version, nonce] = await Promise.all([
    relayer.publicClient.readContract({ ...token, functionName: 'name' }),
    relayer.publicClient.readContract({ ...token, functionName: 'version' }),
    relayer.publicClient.readContract({ ...token, functionName: 'nonces', args: [owner] }),
  ])
  const signature = await signer.signTypedData(permitTypedData(chain, { name, version }, { owner, value, nonce, deadline }))
  return { owner, value, nonce, deadline, signature }
}

/** Signs a VenueDelegation of `signer`'s address to the wrapper at Trading's current nonce. */
export async function signDelegation(
  relayer: Relayer,
  chain: DevnetChain,
  signer: LocalAccount,
  { delegator = signer.address, expiry }: { delegator?: Address; expiry: bigint },
): Promise<SignedDelegation> {
  const nonce = await relayer.publicClient.readContract({
    address: chain.contracts.trading,
    abi: tradingAbi,
    functionName: 'delegatableNonces',
    args: [delegator],
  })
  const delegate = chain.contracts.wrapper
  const signature = await signer.signTypedData(
    delegationTypedData({ ...chain, delegationDomain: SPEC_DELEGATION_DOMAIN }, { delegator, delegate, nonce, expiry }),
  )
  return { delegator, delegate, nonce, expiry, signature }
}

/**
 * A 65-byte signature goes to `permit(…, v, r, s)`, which every ERC-2612 token has (USDC still checks it by
 * ERC-1271 when the owner is a contract); longer contract-wallet signatures need USDC's `bytes` overload.
 */
export function permitCall(chain: DevnetChain, permit: SignedPermit): BatchCall {
  const { owner, value, deadline, signature } = permit
  const spender = chain.contracts.tradingStorage
  if (size(signature) !== 65) {
    const args = [owner, spender, value, deadline, signature] as const
    return { to: chain.contracts.usdc, data: encodeFunctionData({ abi: permitUsdcAbi, functionName: 'permit', args }) }
  }
  const { v, r, s } = splitSignature(signature)
  const args = [owner, spender, value, deadline, v, r, s] as const
  return { to: chain.contracts.usdc, data: encodeFunctionData({ abi: permitUsdcAbi, functionName: 'permit', args }) }
}

export function delegationCall(chain: DevnetChain, delegation: SignedDelegation): BatchCall {
  const { delegator, delegate, nonce, expiry, signature } = delegation
  const { v, r, s } = splitSignature(signature)
  return {
    to: chain.contracts.trading,
    data: encodeFunctionData({
      abi: tradingAbi,
      functionName: 'setDelegateWithSignature',
      args: [delegator, delegate, nonce, expiry, v, r, s],
    }),
  }
}

function splitSignature(signature: Hex): { v: number; r: Hex; s: Hex } {
  const { v, yParity, r, s } = parseSignature(signature)
  return { v: v === undefined ? 27 + yParity : Number(v), r, s }
}

/** Unix seconds, `minutes` from now by the chain's clock (what `expiry` and `deadline` are compared with). */
export async function chainTimePlus(relayer: Relayer, minutes: number): Promise<bigint> {
  const block = await relayer.publicClient.getBlock()
  return block.timestamp + BigInt(minutes * 60)
}
