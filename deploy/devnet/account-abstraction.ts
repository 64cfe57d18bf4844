import { createRequire } from 'node:module'
import { type Address, type Hex, concat, encodeAbiParameters, getContractAddress, isAddressEqual, parseAbi } from 'viem'
import { type DevnetClient, confirmTransaction } from './clients.ts'

/** Pre-deployed by anvil (and present on most public chains): deploys `initcode` with CREATE2 under `salt`. */
export const DETERMINISTIC_DEPLOYER: Address = '0x4e59b44847b379578588920cA78FbF26c0B4956C'
export const ENTRY_POINT_V08: Address = '0x4337084D9E255Ff0702461CF8895CE9E3b5Ff108'
/** SimpleAccountFactory v0.8, also permissionless's default factory for EntryPoint 0.8. */
export const SIMPLE_ACCOUNT_FACTORY_V08: Address = '0x13E9ed32155810FDbd067D4522C492D6f68E5944'

// The salts the canonical deployments used; with the npm artifacts' init code they give the addresses above.
const ENTRY_POINT_V08_SALT: Hex = '0x0a59dbff790c23c976a548690c27297883cc66b4c67024f9117b0238995e35e9'
const SIMPLE_ACCOUNT_FACTORY_V08_SALT: Hex = `0x${'00'.repeat(32)}`

export const simpleAccountFactoryAbi = parseAbi(['function getAddress(address owner, uint256 salt) view returns (address)'])

/**
 * Deploys EntryPoint v0.8 and SimpleAccountFactory v0.8 at their canonical addresses. (Copying their runtime
 * code with anvil_setCode would not work: EntryPoint has immutables set by its constructor.)
 */
export async function deployAccountAbstraction(client: DevnetClient): Promise<void> {
  await deployThroughCreate2(client, ENTRY_POINT_V08_SALT, artifactBytecode('EntryPoint'), ENTRY_POINT_V08)
  const factoryInitCode = concat([artifactBytecode('SimpleAccountFactory'), encodeAbiParameters([{ type: 'address' }], [ENTRY_POINT_V08])])
  await deployThroughCreate2(client, SIMPLE_ACCOUNT_FACTORY_V08_SALT, factoryInitCode, SIMPLE_ACCOUNT_FACTORY_V08)
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

function artifactBytecode(contractName: 'EntryPoint' | 'SimpleAccountFactory'): Hex {
  const require = createRequire(import.meta.url)
  const artifact = require(`@account-abstraction/contracts/artifacts/${contractName}.json`) as { bytecode: Hex }
  return artifact.bytecode
}
