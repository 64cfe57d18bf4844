import { BaseError, domainSeparator, type Address, type Hex, type PublicClient } from 'viem'
import { ServiceError } from '../../../kit/errors.ts'
import type { Logger } from '../../../kit/logger.ts'
import { permitAllowedOn } from '../../../schemas/onboarding.ts'
import { permitUsdcAbi, tradingAbi } from '../../venue-contracts/abis.ts'
import type { ChainClients } from './chain-clients.ts'
import type { ChainConfig } from './chain-config.ts'
import { orUnreachable, unlessRefused } from './contract-refusal.ts'
import { delegationTypeHash } from './typed-data.ts'

/** What a chain's contracts can do, found at start: a half they cannot relay is refused with a 400 naming why. */
export interface ChainSupport {
  /** why delegations are refused on this chain; absent when Trading takes signed delegations */
  delegationUnavailable?: string
  /** why permits are refused on this chain; absent when USDC takes permits (or the chain allows none) */
  permitUnavailable?: string
  /** why the chain is not checked yet (its node could not be reached): its onboardings answer 500 until it is */
  unchecked?: { reason: string; cause?: unknown }
}

export type ChainsSupport = ReadonlyMap<number, ChainSupport>

export interface ChainChecks {
  /** kept up to date as checks that could not reach a node are retried */
  support: ChainsSupport
  /** stops the retries */
  stop(): void
}

const ANY_ADDRESS: Address = '0x0000000000000000000000000000000000000001'
const RETRY_FIRST_MS = 1000
const RETRY_MAX_MS = 30_000

/**
 * Checks every configured chain before anything is served: the four contracts, the EntryPoint and the account
 * factory have code (else the start fails naming the setting); the delegation's configured domain and type name
 * are the ones Trading checks, where Trading can say (else the start fails); Trading answers `delegatableNonces`
 * and USDC `nonces` (else that half is refused, loudly, from the start). A chain whose node cannot be reached does
 * not stop the start (prices need no chain): its onboardings answer 500 and the check is retried with backoff
 * until the node answers.
 */
export async function checkChains(chains: ChainConfig[], clients: ChainClients, logger: Logger): Promise<ChainChecks> {
  const support = new Map<number, ChainSupport>()
  const timers = new Map<number, NodeJS.Timeout>()
  let stopped = false

  const check = async (chain: ChainConfig, retryMs: number, atStart: boolean): Promise<void> => {
    const connection = clients.get(chain.chainId)
    if (!connection) throw new Error(`no chain clients for configured chain ${chain.chainId}`)
    const log = logger.child({ chainId: chain.chainId })
    let found: ChainSupport
    try {
      found = await checkChain(chain, connection.publicClient)
    } catch (error) {
      const reachable = !(error instanceof ServiceError && error.code === 'upstream_unavailable')
      if (atStart && reachable) throw error
      const reason = error instanceof Error ? error.message : String(error)
      support.set(chain.chainId, { unchecked: { reason, cause: error instanceof Error ? error.cause : undefined } })
      if (reachable) {
        log.error({ reason }, 'onboarding: the chain failed its check; its onboardings answer 500')
        return
      }
      log.error({ reason, retryInMs: retryMs }, 'onboarding: the chain could not be checked; its onboardings answer 500 until it is')
      if (!stopped) {
        const retry = () => void check(chain, Math.min(retryMs * 2, RETRY_MAX_MS), false)
        timers.set(chain.chainId, setTimeout(retry, retryMs).unref())
      }
      return
    }
    support.set(chain.chainId, found)
    if (found.delegationUnavailable) log.error({ reason: found.delegationUnavailable }, 'onboarding: delegations are refused on this chain')
    if (found.permitUnavailable) log.error({ reason: found.permitUnavailable }, 'onboarding: permits are refused on this chain')
    log.info(
      { delegation: !found.delegationUnavailable, permit: permitAllowedOn(chain.chainId) && !found.permitUnavailable },
      'onboarding chain checked',
    )
  }

  try {
    for (const chain of chains) await check(chain, RETRY_FIRST_MS, true)
  } catch (error) {
    stopped = true
    for (const timer of timers.values()) clearTimeout(timer)
    throw error
  }
  return {
    support,
    stop() {
      stopped = true
      for (const timer of timers.values()) clearTimeout(timer)
    },
  }
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
const answers = <T>(chainId: number, read: () => Promise<T>) => unlessRefused(read, (error) => unreachable(chainId, error))

const reach = <T>(chainId: number, read: () => Promise<T>) => orUnreachable(read, (error) => unreachable(chainId, error))

function invalid(chainId: number, message: string): ServiceError {
  return new ServiceError('config_invalid', `invalid configuration for chain ${chainId}: ${message}`)
}

// viem's short message, which names neither the URL nor the request body
function unreachable(chainId: number, error: unknown): ServiceError {
  const why = error instanceof BaseError ? error.shortMessage : String(error)
  return new ServiceError('upstream_unavailable', `chain ${chainId}: the node could not be reached to check the contracts (${why})`, {
    cause: error,
  })
}
