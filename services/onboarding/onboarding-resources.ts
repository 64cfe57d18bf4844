import type { Redis } from 'ioredis'
import type { Env } from '../../kit/env-parsing.ts'
import type { Logger } from '../../kit/logger.ts'
import { checkChains, type ChainChecks, type ChainsSupport } from './chain/chain-checks.ts'
import { createChainClients, type ChainClients } from './chain/chain-clients.ts'
import { setUpOnboarding, type OnboardingSetup } from './config.ts'
import type { EmbeddedChainStarter } from './chain/deployment.ts'
import { createOnboardingQueue } from './onboarding-queue.ts'
import type { OnboardingQueue } from './relay-job.ts'
import { createSponsorshipLedger, type SponsorshipLedger } from './sponsorship-ledger.ts'

/** What the intake (edge) and the relayer share in one process: the chains, their clients, the queue. */
export interface OnboardingResources {
  setup: OnboardingSetup
  clients: ChainClients
  /** what each chain's contracts can do, checked at start */
  support: ChainsSupport
  queue: OnboardingQueue
  /** what the sponsorship policy has admitted and spent today, shared with the relayer */
  ledger: SponsorshipLedger
  close(): Promise<void>
}

export interface OnboardingResourceOptions {
  env: Env
  redis: Redis | undefined
  namespace: string
  logger: Logger
  startEmbeddedChains?: EmbeddedChainStarter
}

export async function openOnboardingResources(options: OnboardingResourceOptions): Promise<OnboardingResources> {
  const setup = await setUpOnboarding(options.env, options.logger, options.startEmbeddedChains)
  const clients = createChainClients(setup.config.chains)
  let checks: ChainChecks
  try {
    checks = await checkChains(setup.config.chains, clients, options.logger)
  } catch (error) {
    clients.close()
    await setup.stop()
    throw error
  }
  const queue = createOnboardingQueue({ redis: options.redis, namespace: options.namespace || undefined, logger: options.logger })
  const ledger = createSponsorshipLedger({
    ceilings: setup.config.sponsorship,
    redis: options.redis,
    namespace: options.namespace || undefined,
  })
  options.logger.info(
    {
      chains: setup.config.chains.map((chain) => chain.chainId),
      source: setup.source,
      queue: options.redis ? 'BullMQ on Redis' : 'embedded (in-process)',
      sponsorship: { ...setup.config.sponsorship, ledger: ledger.store },
    },
    setup.source === 'embedded devnet'
      ? 'onboarding: embedded development chains (set CHAIN_<id>_* or DEPLOYMENT_FILE)'
      : 'onboarding chains configured',
  )
  return {
    setup,
    clients,
    support: checks.support,
    queue,
    ledger,
    async close() {
      checks.stop()
      await queue.close()
      clients.close()
      await setup.stop()
    },
  }
}
