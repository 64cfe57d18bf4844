import { type Abi, BaseError, type Hex, type Log, decodeErrorResult, isHex, parseAbi, parseEventLogs, RpcRequestError, size } from 'viem'
import type { UserOperationReceipt } from 'viem/account-abstraction'

// Depends on viem only, so that the relayer service can take it as it is.

/** SimpleAccount v0.8 (BaseAccount.executeBatch) wraps the failure of call `index` of a batch in this error. */
const executeErrorAbi = parseAbi(['error ExecuteError(uint256 index, bytes returnData)'])

const userOperationRevertReasonAbi = parseAbi([
  'event UserOperationRevertReason(bytes32 indexed userOpHash, address indexed sender, uint256 nonce, bytes revertReason)',
])

export interface UserOperationRevert {
  /** Which call of the batch failed; absent when the revert was not wrapped (e.g. a batch of one call). */
  callIndex?: number
  /** The failing call's own revert data. */
  data: Hex
  /** The error's name when `abi` knows it, "Error" for a reason string, "Panic" for a panic code. */
  errorName?: string
  args?: readonly unknown[]
  /** One line for people, e.g. `call 1: InvalidSignature()` or `call 0: "EIP2612: invalid signature"`. */
  summary: string
}

/**
 * Decodes why a user operation's execution reverted. `revertData` is the `revertReason` of the EntryPoint's
 * UserOperationRevertReason event (see `userOperationRevertData`), or the revert data a bundler returned when
 * gas estimation failed (JSON-RPC error -32521). `abi` holds the errors the called contracts can raise;
 * `Error(string)` and `Panic(uint256)` are always known.
 */
export function decodeUserOperationRevert(revertData: Hex, abi: Abi): UserOperationRevert {
  const executeError = tryDecodeError(revertData, executeErrorAbi)
  const callIndex = executeError?.errorName === 'ExecuteError' ? Number(executeError.args[0]) : undefined
  const data = executeError?.errorName === 'ExecuteError' ? (executeError.args[1] as Hex) : revertData
  const decoded = tryDecodeError(data, abi)
  const where = callIndex === undefined ? '' : `call ${callIndex}: `
  return {
    ...(callIndex === undefined ? {} : { callIndex }),
    data,
    ...(decoded ? { errorName: decoded.errorName, args: decoded.args } : {}),
    summary: `${where}${decoded ? describeError(decoded.errorName, decoded.args) : describeUnknown(data)}`,
  }
}

/**
 * The revert data of a failed user operation: alto puts it in the receipt's `reason`; where a bundler does not,
 * it is read from the EntryPoint's UserOperationRevertReason event in the transaction's logs.
 * Undefined when the operation succeeded or reverted without data.
 */
export function userOperationRevertData(receipt: UserOperationReceipt): Hex | undefined {
  if (receipt.success) return undefined
  const { reason } = receipt
  if (reason && isHex(reason) && reason !== '0x') return reason
  return findRevertReasonEvent(receipt.receipt.logs, receipt.userOpHash)
}

function findRevertReasonEvent(logs: Log[], userOpHash: Hex): Hex | undefined {
  const events = parseEventLogs({ abi: userOperationRevertReasonAbi, logs, eventName: 'UserOperationRevertReason' })
  const event = events.find((candidate) => candidate.args.userOpHash === userOpHash)
  return event && event.args.revertReason !== '0x' ? event.args.revertReason : undefined
}

function tryDecodeError(data: Hex, abi: Abi) {
  try {
    const { errorName, args } = decodeErrorResult({ abi, data })
    return { errorName, args: args ?? [] }
  } catch {
    return undefined
  }
}

function describeError(errorName: string, args: readonly unknown[]): string {
  if (errorName === 'Error') return JSON.stringify(args[0])
  return `${errorName}(${args.map(String).join(', ')})`
}

function describeUnknown(data: Hex): string {
  return data === '0x' ? 'reverted without data' : `unknown error ${data.slice(0, 10)} (${size(data)} bytes)`
}

/**
 * The revert data inside a bundler's refusal to estimate gas for an operation that would revert (JSON-RPC error
 * -32521): such an operation was never sent, and no transaction exists. Undefined for any other error.
 */
export function estimationRevertData(error: unknown): Hex | undefined {
  if (!(error instanceof BaseError)) return undefined
  const rpcError = error.walk((cause) => cause instanceof RpcRequestError && cause.code === -32521)
  if (!(rpcError instanceof RpcRequestError)) return undefined
  // Alto gives the data only in the message: "UserOperation reverted during simulation with reason: 0x…".
  const match = /reason: (0x[0-9a-fA-F]*)/.exec(rpcError.details)
  return match?.[1] as Hex | undefined
}
