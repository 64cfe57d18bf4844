import { BaseError, HttpRequestError, RpcRequestError } from 'viem'

// Which failures of a relay attempt are worth another try, and how to describe them without leaking
// what viem's full messages carry (request bodies with signatures, RPC URLs with keys).

/** Races between operations of one account (a deployment or a nonce in flight): gone on the next try. */
const ONE_ACCOUNT_RACE = /\bAA(10|25)\b/

/**
 * Account or paymaster validation that fails the same way every time: a wrong key (AA23/AA24), an
 * account without funds (AA21), a refusing paymaster (AA3x).
 */
const PERMANENT_ENTRY_POINT_ERROR = /\bAA(1[1-9]|2[0-4]|3[0-4])\b/

/** Bundler JSON-RPC codes that mean the request itself cannot work: an unsupported method, bad parameters. */
const PERMANENT_RPC_CODES = new Set([-32601, -32602])

/** What bundlers answer to a user operation they hold already: the operation is pending. */
const ALREADY_KNOWN = /already known|already present in mempool|already being processed/i

/** Fee prices move: a refusal for a low fee is worth another try. */
const FEE_TOO_LOW = /fee|gas price/i

export function isPermanent(error: unknown): boolean {
  const rpc = rpcRequestError(error)
  if (!rpc || ONE_ACCOUNT_RACE.test(rpc.details)) return false
  if (PERMANENT_ENTRY_POINT_ERROR.test(rpc.details)) return true
  return PERMANENT_RPC_CODES.has(rpc.code) && !ALREADY_KNOWN.test(rpc.details) && !FEE_TOO_LOW.test(rpc.details)
}

export function isAlreadyKnown(error: unknown): boolean {
  const rpc = rpcRequestError(error)
  return rpc !== undefined && ALREADY_KNOWN.test(rpc.details)
}

/** One line for logs and job records: the error's kind and the node's or bundler's own words. */
export function describeError(error: unknown): string {
  const rpc = rpcRequestError(error)
  if (rpc) return `JSON-RPC error ${rpc.code}: ${rpc.details}`
  if (error instanceof BaseError) {
    const http = error.walk((cause) => cause instanceof HttpRequestError)
    if (http instanceof HttpRequestError) return `HTTP request failed${http.status ? ` with status ${http.status}` : ''}`
    return error.shortMessage
  }
  return error instanceof Error ? error.message : String(error)
}

function rpcRequestError(error: unknown): RpcRequestError | undefined {
  if (!(error instanceof BaseError)) return undefined
  const found = error.walk((cause) => cause instanceof RpcRequestError)
  return found instanceof RpcRequestError ? found : undefined
}
