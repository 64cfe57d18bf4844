import { mkdir, writeFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import type { Logger } from 'pino'
import { type Address, type Hex, parseEther, parseUnits } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { mintableTokenAbi } from './devnet-abis.ts'
import { ENTRY_POINT_V08, SIMPLE_ACCOUNT_FACTORY_V08, deployAccountAbstraction, simpleAccountFactoryAbi } from './account-abstraction.ts'
import { accountIndexes, anvilAccount } from './accounts.ts'
import { startAlto } from './alto.ts'
import { startAnvil } from './anvil.ts'
import { type DevnetClient, confirmTransaction, devnetChain, devnetClient } from './clients.ts'
import { type CompiledContracts, compileContracts } from './compile.ts'
import { settleAll } from './settle.ts'
import { deployVenueContracts } from './venue-contracts.ts'
import {
  SPEC_DELEGATION_DOMAIN,
  type DelegationDomain,
  type DevnetAccount,
  type DevnetChain,
  type DevnetDeployment,
} from '../../services/venue-contracts/deployment-record.ts'

export interface Devnet {
  chains: DevnetChain[]
  /** The chain with this id; throws if the devnet was not started with it. */
  chain(chainId: number): DevnetChain
  /** Owner of the service's smart account. */
  relayer: DevnetAccount & {
    /** The owner's SimpleAccount (salt 0) on every chain: not deployed yet, but prefunded with ETH. */
    smartAccountAddress: Address
  }
  /** An EOA holding USDC on every chain, for the service's allowlist. */
  demoPartner: DevnetAccount
  /** The compiled venue contracts, e.g. for tests that deploy a contract wallet. */
  compiledContracts: CompiledContracts
  stop(): Promise<void>
}

export interface StartDevnetOptions {
  chainIds?: number[]
  /** the names Trading checks delegations under, on every chain; the spec's by default */
  delegationDomain?: DelegationDomain
  logger?: Logger
}

// Chain 421614's test token has no permit; elsewhere USDC is native USDC with ERC-2612.
const chainIdsWithPlainUsdc = new Set([421614])
const DEMO_PARTNER_USDC = parseUnits('1000000', 6)
const RELAYER_SMART_ACCOUNT_ETH = parseEther('100')

/**
 * Starts, for each chain id, an anvil node with EntryPoint v0.8, SimpleAccountFactory v0.8 and the venue's
 * contracts deployed, and an alto bundler serving it. All of it listens on 127.0.0.1 only.
 */
export async function startDevnet({
  chainIds = [42161, 421614],
  delegationDomain = SPEC_DELEGATION_DOMAIN,
  logger,
}: StartDevnetOptions = {}): Promise<Devnet> {
  if (chainIds.length === 0) throw new Error('startDevnet needs at least one chain id')
  const compiledContracts = await compileContracts(logger)
  const runningChains: RunningChain[] = []
  const stop = async () => {
    await Promise.all(runningChains.map((chain) => chain.stop()))
  }
  let chains: RunningChain[]
  try {
    chains = await settleAll(
      chainIds.map(async (chainId) => {
        const chain = await startChain(chainId, compiledContracts, delegationDomain, logger?.child({ chainId }))
        runningChains.push(chain)
        return chain
      }),
    )
  } catch (error) {
    await stop()
    throw error
  }

  const descriptions = chains.map((chain) => chain.description)
  return {
    chains: descriptions,
    chain: (chainId) => {
      const chain = descriptions.find((candidate) => candidate.chainId === chainId)
      if (!chain) throw new Error(`the devnet has no chain ${chainId}`)
      return chain
    },
    // The factory and the owner are the same everywhere, and so is the account's address.
    relayer: { ...anvilAccount(accountIndexes.relayer), smartAccountAddress: chains[0]!.relayerSmartAccount },
    demoPartner: anvilAccount(accountIndexes.demoPartner),
    compiledContracts,
    stop,
  }
}

interface RunningChain {
  description: DevnetChain
  relayerSmartAccount: Address
  stop(): Promise<void>
}

async function startChain(
  chainId: number,
  compiled: CompiledContracts,
  delegationDomain: DelegationDomain,
  logger?: Logger,
): Promise<RunningChain> {
  const startedAt = performance.now()
  const stopsInStartOrder: (() => Promise<void>)[] = []
  const stop = async () => {
    for (const stopOne of [...stopsInStartOrder].reverse()) await stopOne()
  }
  try {
    const anvil = await startAnvil(chainId, logger)
    stopsInStartOrder.push(anvil.stop)
    const deployer = devnetClient(devnetChain(chainId, anvil.rpcUrl), privateKeyToAccount(anvilAccount(accountIndexes.deployer).privateKey))
    await deployAccountAbstraction(deployer)

    // The bundler needs only the EntryPoint: start it while the venue's contracts are deployed.
    const bundlerStarting = startAlto({
      chainId,
      rpcUrl: anvil.rpcUrl,
      entryPoint: ENTRY_POINT_V08,
      executorPrivateKey: anvilAccount(accountIndexes.bundlerExecutor).privateKey,
      utilityPrivateKey: anvilAccount(accountIndexes.bundlerUtility).privateKey,
      logger,
    }).then((bundler) => {
      stopsInStartOrder.push(bundler.stop)
      return bundler
    })
    const venueDeploying = deployVenueAndFund(deployer, compiled, delegationDomain)
    await settleAll<unknown>([bundlerStarting, venueDeploying])
    const bundler = await bundlerStarting
    const venue = await venueDeploying

    logger?.info({ ms: Math.round(performance.now() - startedAt) }, 'devnet chain ready')
    return {
      description: {
        chainId,
        rpcUrl: anvil.rpcUrl,
        bundlerUrl: bundler.bundlerUrl,
        entryPoint: ENTRY_POINT_V08,
        entryPointVersion: '0.8',
        accountFactory: SIMPLE_ACCOUNT_FACTORY_V08,
        contracts: venue.contracts,
        usdcHasPermit: venue.usdcHasPermit,
        delegationDomain,
      },
      relayerSmartAccount: venue.relayerSmartAccount,
      stop,
    }
  } catch (error) {
    await stop()
    throw error
  }
}

async function deployVenueAndFund(deployer: DevnetClient, compiled: CompiledContracts, delegationDomain: DelegationDomain) {
  const usdcHasPermit = !chainIdsWithPlainUsdc.has(deployer.chain.id)
  const contracts = await deployVenueContracts(deployer, compiled, usdcHasPermit, delegationDomain)
  const demoPartnerFunding = await deployer.writeContract({
    address: contracts.usdc,
    abi: mintableTokenAbi,
    functionName: 'mint',
    args: [anvilAccount(accountIndexes.demoPartner).address, DEMO_PARTNER_USDC],
  })
  await confirmTransaction(deployer, demoPartnerFunding, "minting the demo partner's USDC")

  // The smart account pays the EntryPoint for its operations, so it gets ETH before it is even deployed.
  const relayerSmartAccount = await deployer.readContract({
    address: SIMPLE_ACCOUNT_FACTORY_V08,
    abi: simpleAccountFactoryAbi,
    functionName: 'getAddress',
    args: [anvilAccount(accountIndexes.relayer).address, 0n],
  })
  const relayerFunding = await deployer.sendTransaction({ to: relayerSmartAccount, value: RELAYER_SMART_ACCOUNT_ETH })
  await confirmTransaction(deployer, relayerFunding, "funding the relayer's smart account")
  return { contracts, usdcHasPermit, relayerSmartAccount }
}

/** What `writeDeployment` writes: everything a service or a person needs to use the devnet. */

export function toDeployment(devnet: Devnet): DevnetDeployment {
  return {
    chains: devnet.chains,
    relayer: {
      address: devnet.relayer.address,
      smartAccountAddress: devnet.relayer.smartAccountAddress,
      devnetRelayerPrivateKey: devnet.relayer.privateKey,
    },
    demoPartner: devnet.demoPartner,
  }
}

export async function writeDeployment(devnet: Devnet, file: string): Promise<void> {
  await mkdir(dirname(file), { recursive: true })
  await writeFile(file, `${JSON.stringify(toDeployment(devnet), null, 2)}\n`)
}
