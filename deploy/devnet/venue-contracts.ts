import { type Address, getAddress } from 'viem'
import { tradingAbi } from '../../services/venue-contracts/abis.ts'
import { sponsoringPaymasterAbi } from './devnet-abis.ts'
import { type DevnetClient, confirmTransaction } from './clients.ts'
import type { CompiledContract, CompiledContracts } from './compile.ts'
import type { DelegationDomain, VenueContracts } from '../../services/venue-contracts/deployment-record.ts'

export async function deployVenueContracts(
  client: DevnetClient,
  compiled: CompiledContracts,
  usdcHasPermit: boolean,
  delegationDomain: DelegationDomain,
): Promise<VenueContracts> {
  const usdc = await deployContract(client, compiled[usdcHasPermit ? 'PermitUSDC' : 'PlainUSDC'])
  const { name, version, typeName } = delegationDomain
  const trading = await deployContract(client, compiled.Trading, [usdc, name, version, typeName])
  // Trading creates its TradingStorage, which therefore knows Trading as the only caller allowed to pull funds.
  const tradingStorage = await client.readContract({ address: trading, abi: tradingAbi, functionName: 'tradingStorage' })
  const wrapper = await deployContract(client, compiled.VenueAtomicTrading, [trading])
  return { trading, tradingStorage, usdc, wrapper }
}

/** A contract wallet that `owner` controls and that signs by ERC-1271 (see OwnedContractWallet.sol). */
export function deployContractWallet(client: DevnetClient, compiled: CompiledContracts, owner: Address) {
  return deployContract(client, compiled.OwnedContractWallet, [owner])
}

/** A Trading of an earlier published version, without signature delegation (see LegacyTrading.sol). */
export function deployLegacyTrading(client: DevnetClient, compiled: CompiledContracts) {
  return deployContract(client, compiled.LegacyTrading)
}

/** A plain ERC-20 without permit, as USDC where a chain's token has none. */
export function deployPlainUsdc(client: DevnetClient, compiled: CompiledContracts) {
  return deployContract(client, compiled.PlainUSDC)
}

/** The development chain's verifying paymaster (see SponsoringPaymaster.sol), with `deposit` ETH at the EntryPoint. */
export async function deploySponsoringPaymaster(
  client: DevnetClient,
  compiled: CompiledContracts,
  options: { entryPoint: Address; signer: Address; deposit: bigint },
): Promise<Address> {
  const paymaster = await deployContract(client, compiled.SponsoringPaymaster, [options.entryPoint, options.signer])
  const hash = await client.writeContract({
    address: paymaster,
    abi: sponsoringPaymasterAbi,
    functionName: 'deposit',
    value: options.deposit,
  })
  await confirmTransaction(client, hash, "funding the paymaster's deposit")
  return paymaster
}

async function deployContract(
  client: DevnetClient,
  contract: CompiledContract,
  constructorArgs: readonly unknown[] = [],
): Promise<Address> {
  const hash = await client.deployContract({ abi: contract.abi, bytecode: contract.bytecode, args: constructorArgs })
  const receipt = await confirmTransaction(client, hash, 'contract deployment')
  if (!receipt.contractAddress) throw new Error(`contract deployment ${hash} created no contract`)
  return getAddress(receipt.contractAddress)
}
