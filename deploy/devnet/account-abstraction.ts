import { createRequire } from 'node:module'
import { type Address, type Hex, concat, encodeAbiParameters, getContractAddress, isAddressEqual, parseAbi } from 'viem'
import { CANONICAL_ENTRY_POINTS, type EntryPointVersion } from '../../services/venue-contracts/entry-points.ts'
import { type DevnetClient, confirmTransaction } from './clients.ts'

/** Pre-deployed by anvil (and present on most public chains): deploys `initcode` with CREATE2 under `salt`. */
export const DETERMINISTIC_DEPLOYER: Address = '0x4e59b44847b379578588920cA78FbF26c0B4956C'

// The salts the canonical deployments used; with the npm artifacts' init code they give the canonical addresses
// (the factory's salt is zero for both versions).
const ENTRY_POINT_SALTS: Record<EntryPointVersion, Hex> = {
  '0.7': '0x90d8084deab30c2a37c45e8d47f49f2f7965183cb6990a98943ef94940681de3',
  '0.8': '0x0a59dbff790c23c976a548690c27297883cc66b4c67024f9117b0238995e35e9',
}
const SIMPLE_ACCOUNT_FACTORY_SALT: Hex = `0x${'00'.repeat(32)}`

// @account-abstraction/contracts 0.8.0, and 0.7.0 under an npm alias
const ARTIFACT_PACKAGES: Record<EntryPointVersion, string> = {
  '0.7': '@account-abstraction/contracts-v07',
  '0.8': '@account-abstraction/contracts',
}

export const simpleAccountFactoryAbi = parseAbi(['function getAddress(address owner, uint256 salt) view returns (address)'])

/**
 * Deploys the EntryPoint of `version` and its SimpleAccountFactory at their canonical addresses. (Copying their
 * runtime code with anvil_setCode would not work: EntryPoint has immutables set by its constructor.)
 */
export async function deployAccountAbstraction(client: DevnetClient, version: EntryPointVersion): Promise<void> {
  const { entryPoint, simpleAccountFactory } = CANONICAL_ENTRY_POINTS[version]
  await deployThroughCreate2(client, ENTRY_POINT_SALTS[version], artifactBytecode(version, 'EntryPoint'), entryPoint)
  const factoryInitCode = concat([
    artifactBytecode(version, 'SimpleAccountFactory'),
    encodeAbiParameters([{ type: 'address' }], [entryPoint]),
  ])
  await deployThroughCreate2(client, SIMPLE_ACCOUNT_FACTORY_SALT, factoryInitCode, simpleAccountFactory)
}

async function deployThroughCreate2(client: DevnetClient, salt: Hex, initCode: Hex, expected: Address) {
  const predicted = getContractAddress({ opcode: 'CREATE2', from: DETERMINISTIC_DEPLOYER, salt, bytecode: initCode })
  if (!isAddressEqual(predicted, expected)) {
    throw new Error(`init code would deploy to ${predicted}, not the canonical ${expected}: artifacts changed?`)
  }
  const hash = await client.sendTransaction({ to: DETERMINISTIC_DEPLOYER, data: concat([salt, initCode]) })
  await confirmTransaction(client, hash, `CREATE2 deployment to ${expected}`)
  // Succeeds without deploying anything where the deployer itself is missing, so look at the result.
  const code = await client.getCode({ address: expected })
  if (!code || code === '0x') throw new Error(`CREATE2 deployment to ${expected} left no code (transaction ${hash})`)
}

function artifactBytecode(version: EntryPointVersion, contractName: 'EntryPoint' | 'SimpleAccountFactory'): Hex {
  const require = createRequire(import.meta.url)
  const artifact = require(`${ARTIFACT_PACKAGES[version]}/artifacts/${contractName}.json`) as { bytecode: Hex }
  return artifact.bytecode
}
