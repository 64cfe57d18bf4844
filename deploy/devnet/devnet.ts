import { mkdir, writeFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import type { Logger } from 'pino'
import { type Address, parseEther, parseUnits } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { mintableTokenAbi } from './devnet-abis.ts'
import { deployAccountAbstraction, simpleAccountFactoryAbi } from './account-abstraction.ts'
import { CANONICAL_ENTRY_POINTS, type EntryPointVersion } from '../../services/venue-contracts/entry-points.ts'
import { accountIndexes, anvilAccount } from './accounts.ts'
import { startAlto } from './alto.ts'
import { startAnvil } from './anvil.ts'
import { type DevnetClient, confirmTransaction, devnetChain, devnetClient } from './clients.ts'
import { type CompiledContracts, compileContracts } from './compile.ts'
import { settleAll } from './settle.ts'
import { deploySponsoringPaymaster, deployVenueContracts } from './venue-contracts.ts'
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
  /** the EntryPoint (and SimpleAccountFactory) version deployed and bundled on every chain; 0.8 by default */
  entryPointVersion?: EntryPointVersion
  /**
   * Deploys a verifying paymaster with a deposit on every chain and leaves the relayer's smart account without
   * ETH: its operations land only when the paymaster sponsors them (see test/support/paymaster-server.ts).
   */
  paymaster?: boolean
  logger?: Logger
}

/** What every chain of one devnet is built with. */
interface ChainSetup {
  compiled: CompiledContracts
  delegationDomain: DelegationDomain
  entryPointVersion: EntryPointVersion
  paymaster: boolean
}

// Chain 421614's test token has no permit; elsewhere USDC is native USDC with ERC-2612.
const chainIdsWithPlainUsdc = new Set([421614])
const DEMO_PARTNER_USDC = parseUnits('1000000', 6)
const RELAYER_SMART_ACCOUNT_ETH = parseEther('100')
const PAYMASTER_DEPOSIT_ETH = parseEther('10')

/**
 * Starts, for each chain id, an anvil node with EntryPoint v0.8 (or v0.7), its SimpleAccountFactory and the venue's
 * contracts deployed, and an alto bundler serving it. All of it listens on 127.0.0.1 only.
 */
export async function startDevnet({
  chainIds = [42161, 421614],
  delegationDomain = SPEC_DELEGATION_DOMAIN,
  entryPointVersion = '0.8',
  paymaster = false,
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
        const setup = { compiled: compiledContracts, delegationDomain, entryPointVersion, paymaster }
        const chain = await startChain(chainId, setup, logger?.child({ chainId }))
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
    chain: (chainId) => chainById(descriptions, chainId, 'the devnet'),
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

async function startChain(chainId: number, setup: ChainSetup, logger?: Logger): Promise<RunningChain> {
  const { entryPoint, simpleAccountFactory } = CANONICAL_ENTRY_POINTS[setup.entryPointVersion]
  const startedAt = performance.now()
  const stopsInStartOrder: (() => Promise<void>)[] = []
  const stop = async () => {
    for (const stopOne of [...stopsInStartOrder].reverse()) await stopOne()
  }
  try {
    const anvil = await startAnvil(chainId, logger)
    stopsInStartOrder.push(anvil.stop)
    const deployer = devnetClient(devnetChain(chainId, anvil.rpcUrl), privateKeyToAccount(anvilAccount(accountIndexes.deployer).privateKey))
    await deployAccountAbstraction(deployer, setup.entryPointVersion)

    // The bundler needs only the EntryPoint: start it while the venue's contracts are deployed.
    const bundlerStarting = startAlto({
      chainId,
      rpcUrl: anvil.rpcUrl,
      entryPoint,
      executorPrivateKey: anvilAccount(accountIndexes.bundlerExecutor).privateKey,
      utilityPrivateKey: anvilAccount(accountIndexes.bundlerUtility).privateKey,
      logger,
    }).then((bundler) => {
      stopsInStartOrder.push(bundler.stop)
      return bundler
    })
    const venueDeploying = deployVenueAndFund(deployer, setup)
    await settleAll<unknown>([bundlerStarting, venueDeploying])
    const bundler = await bundlerStarting
    const venue = await venueDeploying

    logger?.info({ ms: Math.round(performance.now() - startedAt) }, 'devnet chain ready')
    return {
      description: {
        chainId,
        rpcUrl: anvil.rpcUrl,
        bundlerUrl: bundler.bundlerUrl,
        entryPoint,
        entryPointVersion: setup.entryPointVersion,
        accountFactory: simpleAccountFactory,
        contracts: venue.contracts,
        usdcHasPermit: venue.usdcHasPermit,
        delegationDomain: setup.delegationDomain,
        ...(venue.paymaster && { paymaster: venue.paymaster }),
      },
      relayerSmartAccount: venue.relayerSmartAccount,
      stop,
    }
  } catch (error) {
    await stop()
    throw error
  }
}

async function deployVenueAndFund(deployer: DevnetClient, setup: ChainSetup) {
  const usdcHasPermit = !chainIdsWithPlainUsdc.has(deployer.chain.id)
  const contracts = await deployVenueContracts(deployer, setup.compiled, usdcHasPermit, setup.delegationDomain)
  const demoPartnerFunding = await deployer.writeContract({
    address: contracts.usdc,
    abi: mintableTokenAbi,
    functionName: 'mint',
    args: [anvilAccount(accountIndexes.demoPartner).address, DEMO_PARTNER_USDC],
  })
  await confirmTransaction(deployer, demoPartnerFunding, "minting the demo partner's USDC")

  const { entryPoint, simpleAccountFactory } = CANONICAL_ENTRY_POINTS[setup.entryPointVersion]
  const relayerSmartAccount = await deployer.readContract({
    address: simpleAccountFactory,
    abi: simpleAccountFactoryAbi,
    functionName: 'getAddress',
    args: [anvilAccount(accountIndexes.relayer).address, 0n],
  })
  if (setup.paymaster) {
    const signer = anvilAccount(accountIndexes.paymasterSigner).address
    const paymaster = await deploySponsoringPaymaster(deployer, setup.compiled, { entryPoint, signer, deposit: PAYMASTER_DEPOSIT_ETH })
    return { contracts, usdcHasPermit, relayerSmartAccount, paymaster }
  }
  // The smart account pays the EntryPoint for its operations, so it gets ETH before it is even deployed.
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

/** The chain of `chains` with this id; `owner` names what lacks it in the error. */
export function chainById(chains: DevnetChain[], chainId: number, owner: string): DevnetChain {
  const chain = chains.find((candidate) => candidate.chainId === chainId)
  if (!chain) throw new Error(`${owner} has no chain ${chainId}`)
  return chain
}
