import { toHex } from 'viem'
import { mnemonicToAccount } from 'viem/accounts'
import type { DevnetAccount } from '../../services/venue-contracts/deployment-record.ts'

/** Anvil's default mnemonic: its accounts are public test keys, funded with 10 000 ETH each on every chain. */
export const ANVIL_MNEMONIC = 'test test test test test test test test test test test junk'

/**
 * Which anvil account plays which part. Each part has its own account so that their transactions never compete
 * for nonces. Indexes from `firstFreeAccountIndex` up to 9 are left for tests.
 */
export const accountIndexes = {
  deployer: 0,
  bundlerExecutor: 1,
  bundlerUtility: 2,
  relayer: 3,
  demoPartner: 4,
  /** signs the development chain's paymaster approvals; holds nothing, so it is past the funded ten */
  paymasterSigner: 10,
} as const

export const firstFreeAccountIndex = 5

const derivedAccounts = new Map<number, DevnetAccount>()

export function anvilAccount(index: number): DevnetAccount {
  let account = derivedAccounts.get(index)
  if (!account) {
    const hdAccount = mnemonicToAccount(ANVIL_MNEMONIC, { addressIndex: index })
    const privateKey = hdAccount.getHdKey().privateKey
    if (!privateKey) throw new Error(`no private key derived for anvil account ${index}`)
    account = { address: hdAccount.address, privateKey: toHex(privateKey) }
    derivedAccounts.set(index, account)
  }
  return account
}
