import { isAddressEqual, type Address } from 'viem'
import { ServiceError } from '../../kit/errors.ts'
import { OnboardRequest } from '../../schemas/onboarding.ts'
import type { ChainsSupport } from './chain-checks.ts'
import type { ChainConfig } from './chain-config.ts'

/**
 * The body of POST /v1/onboard, checked against the spec's schema and this deployment's chains:
 * the chain must be served here, the delegate must be that chain's wrapper, and a part the chain's contracts
 * cannot take (found at start) is refused. Anything else is a 400 with zod's issues.
 */
export function parseOnboardRequest(body: Buffer, chains: ReadonlyMap<number, ChainConfig>, support: ChainsSupport): OnboardRequest {
  let json: unknown
  try {
    json = JSON.parse(body.toString('utf8'))
  } catch {
    throw invalid([{ code: 'custom', path: [], message: 'the body must be JSON' }])
  }
  const parsed = OnboardRequest.superRefine((request, context) => {
    const chain = chains.get(request.chainId)
    if (!chain) {
      context.addIssue({ code: 'custom', path: ['chainId'], message: `chain ${request.chainId} is not served here` })
    } else if (request.delegation && !isAddressEqual(request.delegation.delegate as Address, chain.contracts.wrapper)) {
      context.addIssue({
        code: 'custom',
        path: ['delegation', 'delegate'],
        message: `must be the wrapper contract of chain ${chain.chainId}, ${chain.contracts.wrapper}`,
      })
    }
    const { delegationUnavailable, permitUnavailable } = support.get(request.chainId) ?? {}
    if (request.delegation && delegationUnavailable) {
      context.addIssue({
        code: 'custom',
        path: ['delegation'],
        message: `not relayed on chain ${request.chainId}: ${delegationUnavailable}`,
      })
    }
    if (request.permit && permitUnavailable) {
      context.addIssue({ code: 'custom', path: ['permit'], message: `not relayed on chain ${request.chainId}: ${permitUnavailable}` })
    }
  }).safeParse(json)
  if (!parsed.success) throw invalid(parsed.error.issues)
  return parsed.data
}

function invalid(issues: unknown[]): ServiceError {
  return new ServiceError('validation_failed', 'invalid onboarding request', { issues })
}
