import type { Abi, Hex } from 'viem'
import { decodeUserOperationRevert } from '../venue-contracts/user-operation-revert.ts'
import type { OnboardRejection } from '../../schemas/onboarding.ts'
import { permitUsdcAbi, tradingAbi } from '../venue-contracts/abis.ts'
import type { Part } from './batch-calls.ts'

const venueErrors: Abi = [...tradingAbi, ...permitUsdcAbi]

const CALL_OF: Record<Part, string> = { permit: 'USDC.permit', delegation: 'Trading.setDelegateWithSignature' }

/**
 * Why the batch reverts, for people: which part's call failed and the contract's error, e.g.
 * `delegation (Trading.setDelegateWithSignature) reverted: InvalidNonce(0, 1)`. SimpleAccount wraps the
 * failing call of a batch of two in ExecuteError(index, data); a batch of one reverts with the call's data.
 */
export function explainRevert(revertData: Hex, parts: Part[]): OnboardRejection {
  const revert = decodeUserOperationRevert(revertData, venueErrors)
  const part = revert.callIndex === undefined ? (parts.length === 1 ? parts[0] : undefined) : parts[revert.callIndex]
  // the summary names the call by its index ("call 1: …"); the reason names it by its part
  const why = revert.summary.replace(/^call \d+: /, '')
  return {
    reason: part ? `${part} (${CALL_OF[part]}) reverted: ${why}` : `the batch reverted: ${why}`,
    ...(part && { part }),
    ...(revert.errorName && { error: revert.errorName }),
    ...(revert.args && { args: revert.args.map(String) }),
  }
}
