import { awaitedLater, settledWithin } from '../../../kit/deferred-start.ts'
import { ServiceError } from '../../../kit/errors.ts'
import { OnboardingId } from '../../../schemas/onboarding.ts'
import type { Route } from '../../http/http-server.ts'
import type { OnboardingRouteDeps } from './onboard-intake.ts'
import { parseOnboardBody } from './onboard-request.ts'

/**
 * POST /v1/onboard: validate (400), allowlist (403), signatures (401), then queue the job under a
 * hash of its signed content and answer with its outcome, or 202 once the deadline has passed.
 * GET /v1/onboard/{id}: the same answer for a queued onboarding, without waiting.
 *
 * The routes exist from the start; the intake's code (signatures, the queue) is loaded once its
 * dependencies are ready, so an edge serves prices without waiting for it. The body's schema needs no chain:
 * a bad body gets its 400 at once. A request that needs the chains waits for them up to `readyWithinMs`,
 * then gets a 500 saying to retry.
 */
export function onboardingRoutes(ready: Promise<OnboardingRouteDeps>, { readyWithinMs }: { readyWithinMs: number }): Route[] {
  const intake = awaitedLater(ready.then(async (deps) => (await import('./onboard-intake.ts')).onboardingIntake(deps)))
  const intakeOnceReady = () =>
    settledWithin(
      intake,
      readyWithinMs,
      () =>
        new ServiceError('internal', `onboarding is still starting (its chains are not ready after ${readyWithinMs} ms); retry shortly`),
    )
  return [
    {
      method: 'POST',
      path: '/v1/onboard',
      budget: 'onboard',
      handle: async ({ body, log }) => {
        const request = parseOnboardBody(body)
        return (await intakeOnceReady()).post(request, log)
      },
    },
    {
      method: 'GET',
      path: '/v1/onboard/:id',
      budget: 'onboardStatus',
      handle: async ({ params }) => {
        const id = OnboardingId.safeParse(params.id)
        if (!id.success) throw new ServiceError('validation_failed', 'invalid onboarding id', { issues: id.error.issues })
        return (await intakeOnceReady()).get(id.data)
      },
    },
  ]
}
