import type { Abi, Hex } from 'viem'
import { decodeUserOperationRevert } from '../../venue-contracts/user-operation-revert.ts'
import type { OnboardRejection } from '../../../schemas/onboarding.ts'
import { permitUsdcAbi, publishedTradingErrorsAbi, tradingAbi } from '../../venue-contracts/abis.ts'
import type { Part } from './batch-calls.ts'

const tradingErrors: Abi = [...tradingAbi, ...publishedTradingErrorsAbi]
const tradingErrorNames = new Set(tradingErrors.flatMap((item) => (item.type === 'error' ? [item.name] : [])))
const venueErrors: Abi = [...tradingErrors, ...permitUsdcAbi]

const CALL_OF: Record<Part, string> = { permit: 'USDC.permit', delegation: 'Trading.setDelegateWithSignature' }

/**
 * Why the batch reverts, for people: which part's call failed and the contract's error, e.g.
 * `delegation (Trading.setDelegateWithSignature) reverted: InvalidNonce()`. SimpleAccount v0.8 wraps the
 * failing call of a batch of two in ExecuteError(index, data); v0.7 and a batch of one revert with the call's
 * own data, and then the error tells the part: Trading's custom errors are the delegation's, reason strings
 * (FiatToken's) the permit's.
 */
export function explainRevert(revertData: Hex, parts: Part[]): OnboardRejection {
  const revert = decodeUserOperationRevert(revertData, venueErrors)
  const part = revert.callIndex === undefined ? partOfUnwrapped(parts, revert.errorName) : parts[revert.callIndex]
  // the summary names the call by its index ("call 1: …"); the reason names it by its part
  const why = revert.summary.replace(/^call \d+: /, '')
  return {
    reason: part ? `${part} (${CALL_OF[part]}) reverted: ${why}` : `the batch reverted: ${why}`,
    ...(part && { part }),
    ...(revert.errorName && { error: revert.errorName }),
    ...(revert.args && { args: revert.args.map(String) }),
  }
}

function partOfUnwrapped(parts: Part[], errorName: string | undefined): Part | undefined {
  if (parts.length === 1) return parts[0]
  if (errorName && tradingErrorNames.has(errorName)) return 'delegation'
  if (errorName === 'Error') return 'permit'
  return undefined
}
