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

/** What `read` resolves with, or `undefined` when the contract refuses it; any other failure is `unreachable(error)`. */
export async function unlessRefused<T>(read: () => Promise<T>, unreachable: (error: unknown) => Error): Promise<T | undefined> {
  try {
    return await read()
  } catch (error) {
    if (isContractRefusal(error)) return undefined
    throw unreachable(error)
  }
}

/** What `read` resolves with; any failure is `unreachable(error)`. */
export async function orUnreachable<T>(read: () => Promise<T>, unreachable: (error: unknown) => Error): Promise<T> {
  try {
    return await read()
  } catch (error) {
    throw unreachable(error)
  }
}
