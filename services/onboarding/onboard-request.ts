import { isAddressEqual, type Address } from 'viem'
import { ServiceError } from '../../kit/errors.ts'
import { OnboardRequest } from '../../schemas/onboarding.ts'
import type { ChainConfig } from './chain-config.ts'

/**
 * The body of POST /v1/onboard, checked against the spec's schema and this deployment's chains:
 * the chain must be served here, and the delegate must be that chain's wrapper. Anything else is a 400
 * with zod's issues.
 */
export function parseOnboardRequest(body: Buffer, chains: ReadonlyMap<number, ChainConfig>): OnboardRequest {
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
  }).safeParse(json)
  if (!parsed.success) throw invalid(parsed.error.issues)
  return parsed.data
}

function invalid(issues: unknown[]): ServiceError {
  return new ServiceError('validation_failed', 'invalid onboarding request', { issues })
}
