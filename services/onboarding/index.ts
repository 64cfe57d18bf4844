// The onboarding capability's public surface: the one file that code outside services/onboarding/ imports
// (the composition root, the development chains, the load test, the scripts and the tests beside them).
//
// Inside: `intake/` (POST /v1/onboard on the edge), `relay/` (the relayer role: the ERC-4337 user operation),
// `chain/` (chain settings, clients and checks both use), and at this level what the two roles share: the
// configuration, the job contract (relay-job.ts), the sponsorship ledger and the resources a process opens.
//
// What it imports when it loads is light (configuration, the intake's routes, whose code loads on first use):
// the parts that load heavy libraries (viem, BullMQ, permissionless) are reached through the async functions
// below, so a process that serves prices never loads them, and an edge loads them only once its prices are
// served.
import type { Env } from '../../kit/env-parsing.ts'
import type { Logger } from '../../kit/logger.ts'
import type { Metrics } from '../../kit/metrics.ts'
import type { OnboardingResourceOptions, OnboardingResources } from './onboarding-resources.ts'
import { relayerConfig } from './relay/relayer-config.ts'
import type { Relayer } from './relay/relayer.ts'

export { OnboardingEnv, onboardingEnv, onboardingConfig, type OnboardingConfig, type SponsorshipCeilings } from './config.ts'
export {
  chainConfigsFromDeployment,
  chainConfigsFromEnv,
  chainEnvSchema,
  type ChainConfig,
  type PermitDomain,
  type VenueContracts,
} from './chain/chain-config.ts'
export { readDeploymentFile, type EmbeddedChains, type EmbeddedChainStarter } from './chain/deployment.ts'
export { RelayerEnv, relayerConfig, type RelayerConfig } from './relay/relayer-config.ts'
export { onboardingRoutes } from './intake/onboard-routes.ts'
export type { ChainClients, ChainConnection } from './chain/chain-clients.ts'
export type { OnboardingQueue } from './relay-job.ts'
export type { SponsorshipLedger } from './sponsorship-ledger.ts'
export type { Relayer, RelayerDeps } from './relay/relayer.ts'
export type { OnboardingResources }

/** What the load test, the demo and the tests use beside the service (tools.ts); loads viem and what relays. */
export const onboardingTools = () => import('./tools.ts')

/** The chains, their clients and checks, the queue and the ledger one process's intake and relayer share. */
export async function openOnboardingResources(options: OnboardingResourceOptions): Promise<OnboardingResources> {
  return (await import('./onboarding-resources.ts')).openOnboardingResources(options)
}

/** The relayer role of a process, on the resources it opened: its configuration read from `env`. */
export async function startRelayerRole(
  resources: OnboardingResources,
  options: { env: Env; logger: Logger; metrics: Metrics },
): Promise<Relayer> {
  const { startRelayer } = await import('./relay/relayer.ts')
  return startRelayer({
    config: relayerConfig(options.env, resources.setup.deployment),
    chains: resources.setup.config.chains,
    clients: resources.clients,
    queue: resources.queue,
    sponsorship: { ledger: resources.ledger, ceilings: resources.setup.config.sponsorship },
    logger: options.logger,
    metrics: options.metrics,
  })
}
