import { ServiceError } from '../../../kit/errors.ts'
import type { Logger } from '../../../kit/logger.ts'
import type { OnboardRequest } from '../../../schemas/onboarding.ts'
import type { ChainsSupport } from '../chain/chain-checks.ts'
import type { ChainClients } from '../chain/chain-clients.ts'
import type { OnboardingConfig } from '../config.ts'
import { replyForOnboarding } from './onboard-replies.ts'
import { checkServedHere } from './onboard-request.ts'
import { onboardingJobId, type OnboardingQueue } from '../relay-job.ts'
import { checkSignatures } from './signature-checks.ts'
import type { Metrics } from '../../../kit/metrics.ts'
import { decideSponsorship } from './sponsorship-policy.ts'
import type { SponsorshipLedger } from '../sponsorship-ledger.ts'
import { inSpan, SpanKind, traceCarrier } from '../../../kit/tracing.ts'

export interface OnboardingRouteDeps {
  config: OnboardingConfig
  chains: ChainClients
  /** what each chain's contracts can do (checkChains) */
  support: ChainsSupport
  /** the relayer runs its jobs, in this process or another */
  queue: OnboardingQueue
  /** what the operator has paid for today (sponsorship-policy.ts) */
  ledger: SponsorshipLedger
  metrics: Metrics
}

/**
 * What the onboarding routes answer with once their dependencies are ready (see onboard-routes.ts), for a
 * body that has already passed the schema.
 */
export function onboardingIntake({ config, chains, support, queue, ledger, metrics }: OnboardingRouteDeps) {
  const chainConfigs = new Map(config.chains.map((chain) => [chain.chainId, chain]))

  const intake = async (request: OnboardRequest, log: Logger) => {
    checkServedHere(request, chainConfigs, support)
    // the allowlist needs no chain: a stranger is refused even while a chain is unreachable
    if (!config.allowlist.has(request.partner.toLowerCase())) {
      throw new ServiceError('forbidden', 'partner is not an allowlisted partner', { details: { partner: request.partner } })
    }
    const unchecked = support.get(request.chainId)?.unchecked
    if (unchecked) {
      const message = `onboarding on chain ${request.chainId} is not available yet: ${unchecked.reason}; retry shortly`
      throw new ServiceError('internal', message, { cause: unchecked.cause })
    }
    const connection = chains.get(request.chainId)
    if (!connection) throw new Error(`no chain clients for configured chain ${request.chainId}`)
    await checkSignatures(request, connection)

    const id = onboardingJobId(request)
    // the policy decides on new onboardings only: the same signed request again gets its job's answer
    if (!(await queue.get(id))) {
      const sponsorship = await decideSponsorship(request, connection, ledger, metrics, log)
      await inSpan('job queue add', { kind: SpanKind.PRODUCER, attributes: { 'onboarding.id': id } }, () =>
        queue.add(id, { request, sponsoredOn: sponsorship.sponsoredOn, trace: traceCarrier() }),
      )
    }
    // a job that failed for good (its retries used up) is tried again when the same request comes back
    if ((await queue.get(id))?.state === 'failed') await queue.retry(id)
    const record = await queue.waitUntilFinished(id, config.deadlineMs)
    if (!record) throw new Error(`onboarding job ${id} vanished while it was awaited`)
    log.info({ id, chainId: request.chainId, partner: request.partner, state: record.state }, 'onboarding answered')
    return replyForOnboarding(record)
  }

  return {
    post: (request: OnboardRequest, log: Logger) => inSpan('onboarding intake', { kind: SpanKind.SERVER }, () => intake(request, log)),
    async get(id: string) {
      const record = await queue.get(id)
      if (!record) throw new ServiceError('not_found', 'no such onboarding (outcomes are kept for a day)', { details: { id } })
      return replyForOnboarding(record)
    },
  }
}
