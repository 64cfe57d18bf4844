import { BaseError, ContractFunctionRevertedError, ContractFunctionZeroDataError } from 'viem'

/**
 * Whether a contract read failed because the contract refused it (it reverted, or has no such function and
 * returned nothing), as opposed to the node being unreachable.
 */
export function isContractRefusal(error: unknown): boolean {
  return (
    error instanceof BaseError &&
    error.walk((cause) => cause instanceof ContractFunctionRevertedError || cause instanceof ContractFunctionZeroDataError) !== null
  )
}
