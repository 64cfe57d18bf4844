import { toSimpleSmartAccount } from 'permissionless/accounts'
import type { Address, Hex } from 'viem'
import {
  createBundlerClient,
  createPaymasterClient,
  formatUserOperationRequest,
  getUserOperationHash,
  UserOperationReceiptNotFoundError,
  type RpcUserOperation,
  type UserOperationReceipt,
} from 'viem/account-abstraction'
import { privateKeyToAccount } from 'viem/accounts'
import type { Logger } from '../../../kit/logger.ts'
import type { EntryPointVersion } from '../../venue-contracts/entry-points.ts'
import type { ChainConnection } from '../chain/chain-clients.ts'
import type { Submission } from '../relay-job.ts'
import type { RelayerConfig } from './relayer-config.ts'
import { isAlreadyKnown } from './relay-errors.ts'
import { userOperationFees } from './user-operation-fees.ts'

/** The relayer's smart account on one chain, and what it does through the chain's bundler. */
export interface ChainRelayer {
  connection: ChainConnection
  /** the SimpleAccount (of the configured EntryPoint version) that sends every onboarding on this chain */
  address: Address
  /**
   * Builds the batch as a user operation under nonce key `nonceKey`, has the bundler estimate it, and
   * signs it. Throws the bundler's refusal when simulation finds that the batch reverts.
   */
  prepare(calls: Array<{ to: Address; data: Hex }>, nonceKey: bigint): Promise<Submission>
  /** hands the signed operation to the bundler; one it holds already counts as sent */
  submit(submission: Submission): Promise<void>
  /** the receipt, if the operation has landed */
  findReceipt(userOpHash: Hex): Promise<UserOperationReceipt | undefined>
  waitForReceipt(userOpHash: Hex): Promise<UserOperationReceipt>
  /** whether the operation's nonce has been used on chain, i.e. the operation has landed */
  nonceUsed(submission: Submission): Promise<boolean>
}

const NONCE_SEQUENCE_BITS = 64n

export async function openChainRelayer(connection: ChainConnection, config: RelayerConfig, log: Logger): Promise<ChainRelayer> {
  const { chainId, entryPoint: entryPointAddress, entryPointVersion, accountFactory, paymasterContext } = connection.config
  const entryPoint = { address: entryPointAddress, version: entryPointVersion }
  const account = await toSimpleSmartAccount({
    client: connection.publicClient,
    owner: privateKeyToAccount(config.privateKey.reveal()),
    entryPoint,
    factoryAddress: accountFactory,
  })
  const fees = userOperationFees({ bundlerTransport: connection.bundlerTransport, publicClient: connection.publicClient, entryPoint, log })
  const bundler = createBundlerClient({
    account,
    client: connection.publicClient,
    transport: connection.bundlerTransport,
    pollingInterval: config.pollingIntervalMs,
    // ERC-7677: pm_getPaymasterStubData for estimation, then pm_getPaymasterData for the operation that is signed
    ...(connection.paymasterTransport && {
      paymaster: createPaymasterClient({ transport: connection.paymasterTransport }),
      ...(paymasterContext && { paymasterContext }),
    }),
    userOperation: { estimateFeesPerGas: fees },
  })

  const relayer: ChainRelayer = {
    connection,
    address: account.address,
    async prepare(calls, nonceKey) {
      const nonce = await account.getNonce({ key: nonceKey })
      const prepared = await bundler.prepareUserOperation({ calls, nonce })
      const userOperation = { ...prepared, signature: await account.signUserOperation(prepared) }
      return {
        userOpHash: getUserOperationHash({ chainId, entryPointAddress, entryPointVersion, userOperation }),
        userOperation: formatUserOperationRequest(userOperation),
      }
    },
    async submit(submission) {
      try {
        await bundler.request({ method: 'eth_sendUserOperation', params: [rpcUserOperation(submission), entryPointAddress] })
      } catch (error) {
        if (!isAlreadyKnown(error)) throw error
      }
    },
    async findReceipt(hash) {
      try {
        return await bundler.getUserOperationReceipt({ hash })
      } catch (error) {
        if (error instanceof UserOperationReceiptNotFoundError) return undefined
        throw error
      }
    },
    waitForReceipt: (hash) =>
      bundler.waitForUserOperationReceipt({ hash, pollingInterval: config.pollingIntervalMs, timeout: config.receiptTimeoutMs }),
    async nonceUsed(submission) {
      const nonce = BigInt(rpcUserOperation(submission).nonce)
      return (await account.getNonce({ key: nonce >> NONCE_SEQUENCE_BITS })) > nonce
    },
  }

  if (!(await account.isDeployed())) {
    // Deployed by an operation of its own (under nonce key 0; onboardings have keys of their own), so that
    // concurrent onboardings do not all carry the factory call.
    log.info({ chainId, account: account.address }, 'deploying the relayer smart account')
    // Several relayers of the same account may start at once: whichever operation lands first deploys it,
    // and the others' (same nonce) are refused as already known, or dropped. Deployed is deployed, by anyone.
    let settled = false
    const deployedByAnyone = async (deadline: number) => {
      while (!settled && !(await account.isDeployed())) {
        if (Date.now() > deadline) return
        await new Promise((resolve) => setTimeout(resolve, config.pollingIntervalMs))
      }
    }
    try {
      const nonce = await account.getNonce({ key: 0n })
      const hash = await bundler.sendUserOperation({ calls: [{ to: account.address, value: 0n, data: '0x' }], nonce })
      await Promise.race([relayer.waitForReceipt(hash), deployedByAnyone(Number.POSITIVE_INFINITY)])
    } catch (error) {
      await deployedByAnyone(Date.now() + config.receiptTimeoutMs)
      if (!(await account.isDeployed())) throw error
    } finally {
      settled = true
    }
  }
  log.info({ chainId, account: account.address }, 'relayer smart account ready')
  return relayer
}

/** The signed operation as the job stores it: JSON-RPC form, as the bundler takes it. */
function rpcUserOperation(submission: Submission): RpcUserOperation<EntryPointVersion> {
  return submission.userOperation as RpcUserOperation<EntryPointVersion>
}
