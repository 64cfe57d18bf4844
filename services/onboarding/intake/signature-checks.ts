import { getAddress, hashTypedData, isAddressEqual, recoverTypedDataAddress, size, type Address, type Hex, type PublicClient } from 'viem'
import { ServiceError } from '../../../kit/errors.ts'
import type { OnboardRequest } from '../../../schemas/onboarding.ts'
import type { ChainConnection } from '../chain/chain-clients.ts'
import { orUnreachable, unlessRefused } from '../chain/contract-refusal.ts'
import { delegationTypedData, permitTypedData } from '../chain/typed-data.ts'
import { ERC1271_MAGIC_VALUE, erc1271Abi } from '../../venue-contracts/abis.ts'

/**
 * Spec 5, rule 3: every signature must come from `partner`, else 401. The delegation is recovered (Trading
 * uses ecrecover: EOAs only); the permit is recovered, or, for a contract wallet, asked of the wallet
 * by ERC-1271 on chain, as USDC itself does.
 */
export async function checkSignatures(request: OnboardRequest, connection: ChainConnection): Promise<void> {
  const partner = getAddress(request.partner)
  if (request.delegation && !(await delegationSignedBy(partner, request.delegation, connection))) {
    throw notSignedByPartner('delegation', 'the delegation was not signed by partner (an externally owned account)')
  }
  if (request.permit && !(await permitSignedBy(partner, request.permit, connection))) {
    throw notSignedByPartner('permit', "the permit was not signed by partner, nor accepted by partner's ERC-1271 wallet")
  }
}

async function delegationSignedBy(
  partner: Address,
  delegation: NonNullable<OnboardRequest['delegation']>,
  connection: ChainConnection,
): Promise<boolean> {
  const typedData = delegationTypedData(connection.config, {
    delegator: partner,
    delegate: getAddress(delegation.delegate),
    nonce: BigInt(delegation.nonce),
    expiry: BigInt(delegation.expiry),
  })
  return recoversTo(partner, () => recoverTypedDataAddress({ ...typedData, signature: delegation.signature as Hex }))
}

async function permitSignedBy(
  partner: Address,
  permit: NonNullable<OnboardRequest['permit']>,
  connection: ChainConnection,
): Promise<boolean> {
  const domain = await onChain('read the token permit domain', () => connection.permitDomain())
  const typedData = permitTypedData(connection.config, domain, {
    owner: partner,
    value: BigInt(permit.value),
    nonce: BigInt(permit.nonce),
    deadline: BigInt(permit.deadline),
  })
  const signature = permit.signature as Hex
  if (size(signature) === 65 && (await recoversTo(partner, () => recoverTypedDataAddress({ ...typedData, signature })))) {
    return true
  }
  return walletAccepts(connection.publicClient, partner, hashTypedData(typedData), signature)
}

async function recoversTo(partner: Address, recover: () => Promise<Address>): Promise<boolean> {
  try {
    return isAddressEqual(await recover(), partner)
  } catch {
    return false // not a valid secp256k1 signature at all
  }
}

/** ERC-1271: a contract at `wallet` that answers the magic value for this hash and signature. */
async function walletAccepts(client: PublicClient, wallet: Address, hash: Hex, signature: Hex): Promise<boolean> {
  const code = await onChain('read the partner code', () => client.getCode({ address: wallet }))
  if (!code || code === '0x') return false
  const answer = await unlessRefused(
    () => client.readContract({ address: wallet, abi: erc1271Abi, functionName: 'isValidSignature', args: [hash, signature] }),
    (error) => chainUnreachable('ask the partner wallet', error),
  )
  return answer === ERC1271_MAGIC_VALUE
}

const onChain = <T>(what: string, read: () => Promise<T>) => orUnreachable(read, (error) => chainUnreachable(what, error))

/** A 500 (the spec lists no 502 for onboarding): the service could not do its part; the request may be sent again. */
function chainUnreachable(what: string, cause: unknown): ServiceError {
  return new ServiceError('internal', `the chain could not be reached to check the permit signature (${what}); retry shortly`, { cause })
}

function notSignedByPartner(part: 'delegation' | 'permit', message: string): ServiceError {
  return new ServiceError('unauthorized', message, { details: { part } })
}
