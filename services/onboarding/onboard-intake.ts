import { ServiceError } from '../../kit/errors.ts'
import { OnboardingId } from '../../schemas/onboarding.ts'
import type { Route } from '../http/http-server.ts'
import type { RequestContext } from '../http/request-context.ts'
import type { ChainsSupport } from './chain-checks.ts'
import type { ChainClients } from './chain-clients.ts'
import type { OnboardingConfig } from './config.ts'
import { replyForOnboarding } from './onboard-replies.ts'
import { parseOnboardRequest } from './onboard-request.ts'
import { onboardingJobId, type OnboardingQueue } from './relay-job.ts'
import { checkSignatures } from './signature-checks.ts'
import { inSpan, SpanKind, traceCarrier } from '../../kit/tracing.ts'

export interface OnboardingRouteDeps {
  config: OnboardingConfig
  chains: ChainClients
  /** what each chain's contracts can do (checkChains) */
  support: ChainsSupport
  /** the relayer runs its jobs, in this process or another */
  queue: OnboardingQueue
}

/**
 * POST /v1/onboard: validate (400), allowlist (403), signatures (401), then queue the job under a
 * hash of its signed content and answer with its outcome, or 202 once the deadline has passed.
 * GET /v1/onboard/{id}: the same answer for a queued onboarding, without waiting.
 */
export function onboardingRoutes(ready: Promise<OnboardingRouteDeps>): Route[] {
  const chainConfigsReady = ready.then(({ config }) => new Map(config.chains.map((chain) => [chain.chainId, chain])))
  // each request awaits these; until one does, a failed start must not count as an unhandled rejection
  ready.catch(() => undefined)
  chainConfigsReady.catch(() => undefined)

  const postOnboard = (context: RequestContext) => inSpan('onboarding intake', { kind: SpanKind.SERVER }, () => intake(context))

  const intake = async ({ body, log }: RequestContext) => {
    // requests that arrive while the chains are still being reached wait for them
    const { config, chains, support, queue } = await ready
    const chainConfigs = await chainConfigsReady
    const request = parseOnboardRequest(body, chainConfigs, support)
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
    await inSpan('job queue add', { kind: SpanKind.PRODUCER, attributes: { 'onboarding.id': id } }, () =>
      queue.add(id, { request, trace: traceCarrier() }),
    )
    // a job that failed for good (its retries used up) is tried again when the same request comes back
    if ((await queue.get(id))?.state === 'failed') await queue.retry(id)
    const record = await queue.waitUntilFinished(id, config.deadlineMs)
    if (!record) throw new Error(`onboarding job ${id} vanished while it was awaited`)
    log.info({ id, chainId: request.chainId, partner: request.partner, state: record.state }, 'onboarding answered')
    return replyForOnboarding(record)
  }

  const getOnboard = async ({ params }: RequestContext) => {
    const id = OnboardingId.safeParse(params.id)
    if (!id.success) throw new ServiceError('validation_failed', 'invalid onboarding id', { issues: id.error.issues })
    const { queue } = await ready
    const record = await queue.get(id.data)
    if (!record) throw new ServiceError('not_found', 'no such onboarding (outcomes are kept for a day)', { details: { id: id.data } })
    return replyForOnboarding(record)
  }

  return [
    { method: 'POST', path: '/v1/onboard', budget: 'onboard', handle: postOnboard },
    { method: 'GET', path: '/v1/onboard/:id', budget: 'onboardStatus', handle: getOnboard },
  ]
}
