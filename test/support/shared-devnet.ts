// A test file's development chain: the one its test run shares (test/shared-devnet/), or, when the file runs
// without it (`node --import tsx x.test.ts`), one of its own. Either way the file gets accounts of its own,
// derived from its path and funded here, so files sharing a chain never compete for nonces or balances:
// a relayer (whose smart account holds ETH, or nothing when a paymaster sponsors it), a demo partner with ETH
// and USDC, and any other account by name. A file on the shared chain must not stop it, pause its mining or
// move its time: a file that needs to keeps a chain of its own (startDevnet), saying why.
import { relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createTestClient, http, keccak256, parseEther, parseUnits, stringToHex, type Address } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { simpleAccountFactoryAbi } from '../../deploy/devnet/account-abstraction.ts'
import { confirmTransaction, devnetChain, devnetClient } from '../../deploy/devnet/clients.ts'
import { compileContracts } from '../../deploy/devnet/compile.ts'
import { mintableTokenAbi } from '../../deploy/devnet/devnet-abis.ts'
import { chainById, type Devnet, startDevnet, toDeployment } from '../../deploy/devnet/devnet.ts'
import { deployVenueContracts } from '../../deploy/devnet/venue-contracts.ts'
import type { DelegationDomain, DevnetAccount, DevnetChain, DevnetDeployment } from '../../services/venue-contracts/deployment-record.ts'
import { SHARED_DEVNET_LOG, readSharedDevnetRecord } from '../shared-devnet/record.ts'

export interface FileDevnetOptions {
  /** the chains the file uses (its deployment record lists only these); 42161 and 421614 by default */
  chainIds?: number[]
  /** the relayer's smart account holds no ETH and the chains list their paymaster, which must sponsor it */
  sponsored?: boolean
  /** the venue's contracts are deployed anew for the file, with Trading checking delegations under these names */
  delegationDomain?: DelegationDomain
}

export interface FileDevnet extends Devnet {
  /** an EOA of the file's own, with 10 000 ETH on each of its chains */
  account(name: string): Promise<DevnetAccount>
}

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const ACCOUNT_ETH = parseEther('10000')
const RELAYER_SMART_ACCOUNT_ETH = parseEther('100')
const DEMO_PARTNER_USDC = parseUnits('1000000', 6)

/** The development chain for the test file at `fileUrl` (its `import.meta.url`). */
export async function devnetForFile(fileUrl: string, options: FileDevnetOptions = {}): Promise<FileDevnet> {
  const chainIds = options.chainIds ?? [42161, 421614]
  const shared = await sharedDeployment()
  const own = shared ? undefined : await startDevnet({ chainIds, paymaster: options.sponsored })
  const base = shared ?? toDeployment(own!)
  try {
    return await fileAccountsOn(base, fileUrl, { ...options, chainIds }, own)
  } catch (error) {
    await own?.stop()
    throw error
  }
}

/**
 * The run's shared chain, or undefined when this file runs without one. The record is this run's only when the run
 * that started it (test/run.ts) is this file's parent process, which starts such a file only once the chain is up.
 */
async function sharedDeployment(): Promise<DevnetDeployment | undefined> {
  const record = await readSharedDevnetRecord()
  if (record?.runnerPid !== process.ppid) return undefined
  if (!record.deployment) throw new Error(`the shared development chain is not up (its log: ${SHARED_DEVNET_LOG})`)
  return record.deployment
}

async function fileAccountsOn(
  base: DevnetDeployment,
  fileUrl: string,
  options: FileDevnetOptions & { chainIds: number[] },
  own: Devnet | undefined,
): Promise<FileDevnet> {
  const file = relative(ROOT, fileURLToPath(fileUrl))
  const accountOf = (name: string): DevnetAccount => {
    const privateKey = keccak256(stringToHex(`${file} ${name}`))
    return { address: privateKeyToAccount(privateKey).address, privateKey }
  }
  const baseChains = options.chainIds.map((chainId) => chainById(base.chains, chainId, 'the development chain'))
  const fund = (address: Address, value: bigint) =>
    Promise.all(
      baseChains.map((chain) => createTestClient({ mode: 'anvil', transport: http(chain.rpcUrl) }).setBalance({ address, value })),
    )

  const relayer = accountOf('relayer')
  const demoPartner = accountOf('demo partner')
  const venueDeployer = accountOf('venue deployer')
  await Promise.all([fund(demoPartner.address, ACCOUNT_ETH), options.delegationDomain && fund(venueDeployer.address, ACCOUNT_ETH)])
  const compiledContracts = await compileContracts()
  const chains = await Promise.all(
    baseChains.map(async (baseChain): Promise<DevnetChain> => {
      const { paymaster, ...chain } = baseChain
      const deployed = options.delegationDomain && {
        contracts: await deployVenueContracts(
          clientOn(baseChain, venueDeployer),
          compiledContracts,
          baseChain.usdcHasPermit,
          options.delegationDomain,
        ),
        delegationDomain: options.delegationDomain,
      }
      const fileChain = { ...chain, ...deployed, ...(options.sponsored && { paymaster }) }
      await mintUsdc(fileChain, demoPartner)
      return fileChain
    }),
  )
  const smartAccountAddress = await clientOn(chains[0]!, relayer).readContract({
    address: chains[0]!.accountFactory,
    abi: simpleAccountFactoryAbi,
    functionName: 'getAddress',
    args: [relayer.address, 0n],
  })
  // The smart account pays the EntryPoint for its operations, so it gets ETH before it is even deployed.
  if (!options.sponsored) await fund(smartAccountAddress, RELAYER_SMART_ACCOUNT_ETH)

  return {
    chains,
    chain: (chainId) => chainById(chains, chainId, "the file's development chain"),
    relayer: { ...relayer, smartAccountAddress },
    demoPartner,
    compiledContracts,
    async account(name) {
      const account = accountOf(`account ${name}`)
      await fund(account.address, ACCOUNT_ETH)
      return account
    },
    stop: async () => {
      await own?.stop()
    },
  }
}

function clientOn(chain: DevnetChain, account: DevnetAccount) {
  return devnetClient(devnetChain(chain.chainId, chain.rpcUrl), privateKeyToAccount(account.privateKey))
}

/** Anyone can mint the development chain's USDC; the partner mints its own. */
async function mintUsdc(chain: DevnetChain, partner: DevnetAccount) {
  const client = clientOn(chain, partner)
  const hash = await client.writeContract({
    address: chain.contracts.usdc,
    abi: mintableTokenAbi,
    functionName: 'mint',
    args: [partner.address, DEMO_PARTNER_USDC],
  })
  await confirmTransaction(client, hash, "minting the demo partner's USDC")
}
