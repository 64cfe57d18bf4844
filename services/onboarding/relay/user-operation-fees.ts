import { createPimlicoClient } from 'permissionless/clients/pimlico'
import { BaseError, MethodNotFoundRpcError, MethodNotSupportedRpcError, type PublicClient, type Transport } from 'viem'
import type { EntryPointVersion } from '../../venue-contracts/entry-points.ts'
import type { Logger } from '../../../kit/logger.ts'

export interface UserOperationFees {
  maxFeePerGas: bigint
  maxPriorityFeePerGas: bigint
}

/**
 * Fees for the next user operation. Alto and Pimlico refuse fees below their own quote, which the node's estimate
 * does not always meet, so their `pimlico_getUserOperationGasPrice` "fast" quote is asked first. Other bundlers do
 * not serve that method (-32601 or -32004): from the first such refusal on, fees come from the node's EIP-1559
 * estimate, doubled as viem does by default ("bundlers have strict rules on fee prechecks").
 */
export function userOperationFees(options: {
  bundlerTransport: Transport
  publicClient: PublicClient
  entryPoint: { address: `0x${string}`; version: EntryPointVersion }
  log: Logger
}): () => Promise<UserOperationFees> {
  const quotes = createPimlicoClient({ transport: options.bundlerTransport, entryPoint: options.entryPoint })
  let bundlerQuotes = true
  return async () => {
    if (bundlerQuotes) {
      try {
        return (await quotes.getUserOperationGasPrice()).fast
      } catch (error) {
        if (!methodAbsent(error)) throw error
        bundlerQuotes = false
        options.log.info('the bundler has no pimlico_getUserOperationGasPrice: user operation fees come from the node from now on')
      }
    }
    const fees = await options.publicClient.estimateFeesPerGas({ chain: undefined, type: 'eip1559' })
    return { maxFeePerGas: 2n * fees.maxFeePerGas, maxPriorityFeePerGas: 2n * fees.maxPriorityFeePerGas }
  }
}

function methodAbsent(error: unknown): boolean {
  return (
    error instanceof BaseError &&
    error.walk((cause) => cause instanceof MethodNotFoundRpcError || cause instanceof MethodNotSupportedRpcError) !== null
  )
}
