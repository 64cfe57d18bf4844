import { ServiceError } from '../../kit/errors.ts'
import { OnboardingId } from '../../schemas/onboarding.ts'
import type { Route } from '../http/http-server.ts'
import type { OnboardingRouteDeps } from './onboard-intake.ts'

/**
 * POST /v1/onboard: validate (400), allowlist (403), signatures (401), then queue the job under a
 * hash of its signed content and answer with its outcome, or 202 once the deadline has passed.
 * GET /v1/onboard/{id}: the same answer for a queued onboarding, without waiting.
 *
 * The routes exist from the start; the intake's code (signatures, the queue) is loaded once its
 * dependencies are ready, so an edge serves prices without waiting for it. Requests that arrive meanwhile
 * wait for it.
 */
export function onboardingRoutes(ready: Promise<OnboardingRouteDeps>): Route[] {
  const intake = ready.then(async (deps) => (await import('./onboard-intake.ts')).onboardingIntake(deps))
  // each request awaits it; until one does, a failed start must not count as an unhandled rejection
  intake.catch(() => undefined)
  return [
    { method: 'POST', path: '/v1/onboard', budget: 'onboard', handle: async (context) => (await intake).post(context) },
    {
      method: 'GET',
      path: '/v1/onboard/:id',
      budget: 'onboardStatus',
      handle: async ({ params }) => {
        const id = OnboardingId.safeParse(params.id)
        if (!id.success) throw new ServiceError('validation_failed', 'invalid onboarding id', { issues: id.error.issues })
        return (await intake).get(id.data)
      },
    },
  ]
}
