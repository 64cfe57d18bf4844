import { ServiceError } from '../../../kit/errors.ts'
import { OnboardRequest } from '../../../schemas/onboarding.ts'
import type { ChainsSupport } from '../chain/chain-checks.ts'
import type { ChainConfig } from '../chain/chain-config.ts'

/**
 * The body of POST /v1/onboard against the spec's schema: JSON, field formats, at least one part.
 * It needs no chain, so a bad body is refused (400 with zod's issues) as soon as the edge listens.
 */
export function parseOnboardBody(body: Buffer): OnboardRequest {
  let json: unknown
  try {
    json = JSON.parse(body.toString('utf8'))
  } catch {
    throw invalid([{ code: 'custom', path: [], message: 'the body must be JSON' }])
  }
  const parsed = OnboardRequest.safeParse(json)
  if (!parsed.success) throw invalid(parsed.error.issues)
  return parsed.data
}

/**
 * A parsed request against this deployment's chains, once they are known: the chain must be served here, the
 * delegate must be that chain's wrapper, and a part the chain's contracts cannot take (found at start) is
 * refused. Each is a 400 with an issue naming the field.
 */
export function checkServedHere(request: OnboardRequest, chains: ReadonlyMap<number, ChainConfig>, support: ChainsSupport): void {
  const issues: { code: 'custom'; path: string[]; message: string }[] = []
  const refuse = (path: string[], message: string) => issues.push({ code: 'custom', path, message })
  const chain = chains.get(request.chainId)
  if (!chain) {
    refuse(['chainId'], `chain ${request.chainId} is not served here`)
  } else if (request.delegation && request.delegation.delegate.toLowerCase() !== chain.contracts.wrapper.toLowerCase()) {
    refuse(['delegation', 'delegate'], `must be the wrapper contract of chain ${chain.chainId}, ${chain.contracts.wrapper}`)
  }
  const { delegationUnavailable, permitUnavailable } = support.get(request.chainId) ?? {}
  if (request.delegation && delegationUnavailable) {
    refuse(['delegation'], `not relayed on chain ${request.chainId}: ${delegationUnavailable}`)
  }
  if (request.permit && permitUnavailable) refuse(['permit'], `not relayed on chain ${request.chainId}: ${permitUnavailable}`)
  if (issues.length > 0) throw invalid(issues)
}

function invalid(issues: unknown[]): ServiceError {
  return new ServiceError('validation_failed', 'invalid onboarding request', { issues })
}
