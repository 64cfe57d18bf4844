import { getAddress } from 'viem'
import { ServiceError } from '../../../kit/errors.ts'
import type { Logger } from '../../../kit/logger.ts'
import type { Metrics } from '../../../kit/metrics.ts'
import type { OnboardRequest } from '../../../schemas/onboarding.ts'
import { readOnboardingState } from '../chain/read-back.ts'
import type { ChainConnection } from '../chain/chain-clients.ts'
import { utcDay, type SponsorshipLedger } from '../sponsorship-ledger.ts'

/** Every reason the policy gives for not paying; the metric's `reason` label and the refusal's `details.reason`. */
export const SPONSORSHIP_REFUSALS = ['partner_daily_onboardings', 'daily_gas', 'operation_gas', 'already_applied'] as const
export type SponsorshipRefusal = (typeof SPONSORSHIP_REFUSALS)[number]

/** An onboarding the policy pays for: the UTC day it is counted on. */
export interface Sponsorship {
  sponsoredOn: string
}

/**
 * The intake's half of the sponsorship policy, for an onboarding that is not queued yet (the same signed
 * request posted again gets its job's answer and is not counted twice):
 * 1. every part it sends is applied on chain already: nothing to pay for; 400 with the state read from chain
 *    (when the state cannot be read, this step is skipped);
 * 2. the partner's onboardings today, or the chain's gas today, would pass their ceiling: 429 with
 *    `retry-after` (the seconds until the next UTC day), nothing counted.
 * Otherwise the onboarding is counted and holds the most gas one operation may be given (the relayer's
 * half, in relay-onboarding.ts, refuses an operation estimated above that and settles what it used).
 * Both refusals are thrown as ServiceErrors.
 */
export async function decideSponsorship(
  request: OnboardRequest,
  connection: ChainConnection,
  ledger: SponsorshipLedger,
  metrics: Metrics,
  log: Logger,
): Promise<Sponsorship> {
  // a saving, not a safeguard: when the chain cannot tell, the ceilings below still decide
  const state = await readOnboardingState(connection.publicClient, connection.config, getAddress(request.partner)).catch(
    (error: unknown) => {
      log.warn({ err: error }, 'onboarding state not read before admission; deciding on the ceilings alone')
      return undefined
    },
  )
  const sent = [...(request.delegation ? ['delegation' as const] : []), ...(request.permit ? ['allowance' as const] : [])]
  if (state && sent.every((part) => !state.missing.includes(part))) {
    metrics.sponsorshipRefusals.labels(String(request.chainId), 'already_applied').inc()
    throw new ServiceError('validation_failed', 'nothing to relay: every part sent is applied on chain already', {
      issues: sent.map((part) => ({ code: 'custom', path: [part === 'allowance' ? 'permit' : part], message: 'already applied on chain' })),
      details: { reason: 'already_applied', state },
    })
  }
  const admission = await ledger.admit(request.chainId, request.partner)
  if (admission.admitted) return { sponsoredOn: utcDay().day }
  metrics.sponsorshipRefusals.labels(String(request.chainId), admission.refusal).inc()
  const what = admission.refusal === 'partner_daily_onboardings' ? "this partner's onboardings" : 'sponsored gas on this chain'
  const message = `sponsorship ceiling reached for today (${what}): retry in ${admission.retryAfterSeconds} seconds`
  log.info({ chainId: request.chainId, partner: request.partner, reason: admission.refusal }, 'onboarding not sponsored')
  throw new ServiceError('rate_limited', message, {
    details: { reason: admission.refusal, retryAfterSeconds: admission.retryAfterSeconds },
    retryAfterSeconds: admission.retryAfterSeconds,
  })
}
