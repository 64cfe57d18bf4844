import type { Redis } from 'ioredis'
import { awaitedLater } from '../kit/deferred-start.ts'
import type { Env } from '../kit/env-parsing.ts'
import { ServiceError } from '../kit/errors.ts'
import type { Logger } from '../kit/logger.ts'
import type { Metrics } from '../kit/metrics.ts'
import type { EmbeddedChainStarter, OnboardingResources } from './onboarding/index.ts'
import type { Role } from './ops/roles.ts'

export interface OnboardingStart {
  /** the chains, their clients and the queue; the edge's intake awaits them */
  resources: Promise<OnboardingResources>
  /**
   * Once prices are served: waits for the resources and starts the relayer role on them. Throws what must stop
   * the start: a wrong setting, or any failure in a process that would only relay.
   */
  finish(): Promise<void>
  stop(): Promise<void>
}

/**
 * Onboarding's part of a process whose roles include the edge (the intake) or the relayer: the two share the
 * chains, their clients and the queue. Prices need neither them nor their code (loaded here, on first use), so
 * the chains are reached, or under `npm start` started, once `afterPrices` resolves; the intake's requests wait
 * for them.
 */
export function startOnboardingAfter(
  afterPrices: Promise<void>,
  deps: {
    env: Env
    roles: readonly Role[]
    redis: Redis | undefined
    namespace: string
    logger: Logger
    metrics: Metrics
    startEmbeddedChains: EmbeddedChainStarter | undefined
  },
): OnboardingStart {
  const { env, roles, logger } = deps
  const onboarding = afterPrices.then(() => import('./onboarding/index.ts'))
  // awaitedLater: a failure before the edge is up must not count as unhandled
  const resources = awaitedLater(
    onboarding.then(({ openOnboardingResources }) =>
      openOnboardingResources({
        env,
        redis: deps.redis,
        namespace: deps.namespace,
        logger,
        startEmbeddedChains: deps.startEmbeddedChains,
      }),
    ),
  )
  const stoppers: Array<() => Promise<void>> = [() => resources.then((opened) => opened.close()).catch(() => undefined)]
  return {
    resources,
    async finish() {
      // A wrong setting (a contract without code, names Trading does not sign with) stops the start. Any other
      // failure to set the chains up (embedded chains that would not start) leaves an edge serving prices, its
      // intake answering 500; a process that would only relay has nothing to do without them and stops.
      const opened = await resources.catch((error: unknown) => {
        if (!roles.includes('edge') || (error instanceof ServiceError && error.code === 'config_invalid')) throw error
        logger.error({ err: error }, 'onboarding unavailable: its chains could not be set up; prices and reads go on')
        return undefined
      })
      if (!roles.includes('relayer') || !opened) return
      const relayer = await (await onboarding).startRelayerRole(opened, { env, logger, metrics: deps.metrics })
      stoppers.unshift(relayer.stop)
    },
    async stop() {
      for (const stop of stoppers) await stop()
    },
  }
}
