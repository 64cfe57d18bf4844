import { BaseError, domainSeparator, type Address, type Hex, type PublicClient } from 'viem'
import { ServiceError } from '../../kit/errors.ts'
import type { Logger } from '../../kit/logger.ts'
import { permitAllowedOn } from '../../schemas/onboarding.ts'
import { permitUsdcAbi, tradingAbi } from '../venue-contracts/abis.ts'
import type { ChainClients } from './chain-clients.ts'
import type { ChainConfig } from './chain-config.ts'
import { isContractRefusal } from './contract-refusal.ts'
import { delegationTypeHash } from './typed-data.ts'

/** What a chain's contracts can do, found at start: a half they cannot relay is refused with a 400 naming why. */
export interface ChainSupport {
  /** why delegations are refused on this chain; absent when Trading takes signed delegations */
  delegationUnavailable?: string
  /** why permits are refused on this chain; absent when USDC takes permits (or the chain allows none) */
  permitUnavailable?: string
}

export type ChainsSupport = ReadonlyMap<number, ChainSupport>

const ANY_ADDRESS: Address = '0x0000000000000000000000000000000000000001'

/**
 * Checks every configured chain before anything is served: the four contracts, the EntryPoint and the account
 * factory have code (else the start fails naming the setting); the delegation's configured domain and type name
 * are the ones Trading checks, where Trading can say (else the start fails); Trading answers `delegatableNonces`
 * and USDC `nonces` (else that half is refused, loudly, from the start). A node that cannot be reached fails
 * the start too: nothing would work.
 */
export async function checkChains(chains: ChainConfig[], clients: ChainClients, logger: Logger): Promise<ChainsSupport> {
  const support = new Map<number, ChainSupport>()
  for (const chain of chains) {
    const connection = clients.get(chain.chainId)
    if (!connection) throw new Error(`no chain clients for configured chain ${chain.chainId}`)
    const found = await checkChain(chain, connection.publicClient)
    support.set(chain.chainId, found)
    const log = logger.child({ chainId: chain.chainId })
    if (found.delegationUnavailable) log.error({ reason: found.delegationUnavailable }, 'onboarding: delegations are refused on this chain')
    if (found.permitUnavailable) log.error({ reason: found.permitUnavailable }, 'onboarding: permits are refused on this chain')
    log.info(
      { delegation: !found.delegationUnavailable, permit: permitAllowedOn(chain.chainId) && !found.permitUnavailable },
      'onboarding chain checked',
    )
  }
  return support
}

async function checkChain(chain: ChainConfig, client: PublicClient): Promise<ChainSupport> {
  const { chainId, contracts } = chain
  const setting = (suffix: string) => `CHAIN_${chainId}_${suffix}`
  const withCode: Array<[string, Address]> = [
    [setting('TRADING'), contracts.trading],
    [setting('TRADING_STORAGE'), contracts.tradingStorage],
    [setting('USDC'), contracts.usdc],
    [setting('WRAPPER'), contracts.wrapper],
    [setting('ENTRY_POINT'), chain.entryPoint],
    [setting('ACCOUNT_FACTORY'), chain.accountFactory],
  ]
  for (const [name, address] of withCode) {
    const code = await reach(chainId, () => client.getCode({ address }))
    if (!code || code === '0x') throw invalid(chainId, `${name}: no contract at ${address} on chain ${chainId}`)
  }

  const support: ChainSupport = {}
  const trading = { address: contracts.trading, abi: tradingAbi } as const
  if (
    (await answers(chainId, () => client.readContract({ ...trading, functionName: 'delegatableNonces', args: [ANY_ADDRESS] }))) ===
    undefined
  ) {
    support.delegationUnavailable = `Trading ${contracts.trading} does not answer delegatableNonces(address): this version has no signature delegation (the wallet calls Trading.setDelegate(${contracts.wrapper}) itself and posts only permit)`
  } else {
    await checkDelegationNames(chain, client)
  }
  if (permitAllowedOn(chainId)) {
    const nonces = await answers(chainId, () =>
      client.readContract({ address: contracts.usdc, abi: permitUsdcAbi, functionName: 'nonces', args: [ANY_ADDRESS] }),
    )
    if (nonces === undefined) {
      support.permitUnavailable = `USDC ${contracts.usdc} does not answer nonces(address): it has no ERC-2612 permit (the wallet approves TradingStorage itself and posts only delegation)`
    }
  }
  return support
}

/** Trading's domain separator and type hash, where it exposes them, must be those of the configured names. */
async function checkDelegationNames(chain: ChainConfig, client: PublicClient): Promise<void> {
  const { chainId, contracts, delegationDomain } = chain
  const trading = { address: contracts.trading, abi: tradingAbi } as const
  const [separator, typeHash] = await Promise.all([
    answers(chainId, () => client.readContract({ ...trading, functionName: 'DOMAIN_SEPARATOR' })),
    answers(chainId, () => client.readContract({ ...trading, functionName: 'DELEGATION_TYPEHASH' })),
  ])
  const expectedSeparator = domainSeparator({
    domain: { name: delegationDomain.name, version: delegationDomain.version, chainId, verifyingContract: contracts.trading },
  })
  if (separator !== undefined && !sameHash(separator, expectedSeparator)) {
    throw invalid(
      chainId,
      `CHAIN_${chainId}_DELEGATION_NAME, CHAIN_${chainId}_DELEGATION_VERSION: Trading's DOMAIN_SEPARATOR() is not that of { name: "${delegationDomain.name}", version: "${delegationDomain.version}" }: set the names Trading was deployed with`,
    )
  }
  if (typeHash !== undefined && !sameHash(typeHash, delegationTypeHash(delegationDomain.typeName))) {
    throw invalid(
      chainId,
      `CHAIN_${chainId}_DELEGATION_TYPE: Trading's DELEGATION_TYPEHASH() is not that of ${delegationDomain.typeName}(address delegator,address delegate,uint256 nonce,uint256 expiry)`,
    )
  }
}

const sameHash = (a: Hex, b: Hex) => a.toLowerCase() === b.toLowerCase()

/** The value, or undefined when the contract refuses the call; an unreachable node fails the start. */
async function answers<T>(chainId: number, read: () => Promise<T>): Promise<T | undefined> {
  try {
    return await read()
  } catch (error) {
    if (isContractRefusal(error)) return undefined
    throw unreachable(chainId, error)
  }
}

async function reach<T>(chainId: number, read: () => Promise<T>): Promise<T> {
  try {
    return await read()
  } catch (error) {
    throw unreachable(chainId, error)
  }
}

function invalid(chainId: number, message: string): ServiceError {
  return new ServiceError('config_invalid', `invalid configuration for chain ${chainId}: ${message}`)
}

// viem's short message, which names neither the URL nor the request body
function unreachable(chainId: number, error: unknown): ServiceError {
  const why = error instanceof BaseError ? error.shortMessage : String(error)
  return new ServiceError('config_invalid', `chain ${chainId}: the node could not be reached to check the contracts at start (${why})`)
}
