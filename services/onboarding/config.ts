import { z } from 'zod'
import { envInt, envList, parseEnv, type Env } from '../../kit/env-parsing.ts'
import { ServiceError } from '../../kit/errors.ts'
import type { Logger } from '../../kit/logger.ts'
import type { DevnetDeployment } from '../venue-contracts/deployment-record.ts'
import { chainConfigsFromDeployment, chainConfigsFromEnv, EnvAddress, type ChainConfig } from './chain/chain-config.ts'
import { readDeploymentFile, type EmbeddedChainStarter } from './chain/deployment.ts'

export const OnboardingEnv = z.object({
  ONBOARD_ALLOWLIST: envList()
    .pipe(z.array(EnvAddress))
    .describe("partner addresses allowed to onboard (the development chain's demo partner is added when chains come from a deployment)"),
  ONBOARD_DEADLINE_MS: envInt(20_000)
    .pipe(z.number().int().positive())
    .describe('how long `POST /v1/onboard` waits for the terminal outcome before answering 202'),
  DEPLOYMENT_FILE: z
    .string()
    .min(1)
    .optional()
    .describe(
      'a development-chain deployment (`npm run devnet` writes one) instead of `CHAIN_<id>_*`; with neither, `npm start` starts the chains itself',
    ),
  SPONSOR_PARTNER_ONBOARDINGS_PER_DAY: envInt(20, { min: 1 }).describe(
    'sponsorship policy: new onboardings each partner may have sponsored per UTC day (429 beyond)',
  ),
  SPONSOR_GAS_PER_OPERATION: envInt(2_000_000, { min: 100_000 }).describe(
    "sponsorship policy: the most gas one user operation may be given (its call, verification and pre-verification gas limits, and the paymaster's, summed); an operation estimated above it is not sent (403)",
  ),
  SPONSOR_DAILY_GAS: envInt(200_000_000, { min: 100_000 }).describe(
    'sponsorship policy: the gas all onboardings on one chain may be given per UTC day, across replicas; each admitted onboarding holds `SPONSOR_GAS_PER_OPERATION` of it until its operation has landed (429 beyond)',
  ),
})

/** The intake's own variables (the chains are CHAIN_<id>_* or DEPLOYMENT_FILE), checked at start. */
export const onboardingEnv = (env: Env) => parseEnv(OnboardingEnv, env, 'onboarding')

export interface OnboardingConfig {
  chains: ChainConfig[]
  /** lower-case partner addresses */
  allowlist: ReadonlySet<string>
  deadlineMs: number
  sponsorship: SponsorshipCeilings
}

/** What the operator pays for at most (see sponsorship-policy.ts). */
export interface SponsorshipCeilings {
  partnerOnboardingsPerDay: number
  gasPerOperation: number
  dailyGas: number
}

/**
 * The intake's settings. Chains come from `deployment` when given (the development chain's partner
 * is then allowlisted too), else from CHAIN_<id>_* variables.
 */
export function onboardingConfig(env: Env, deployment?: DevnetDeployment): OnboardingConfig {
  const parsed = parseEnv(OnboardingEnv, env, 'onboarding')
  const chains = deployment ? chainConfigsFromDeployment(deployment) : chainConfigsFromEnv(env)
  if (chains.length === 0) {
    throw new ServiceError('config_invalid', 'invalid configuration for onboarding: no chain configured (CHAIN_<id>_* or DEPLOYMENT_FILE)')
  }
  const partners = [...parsed.ONBOARD_ALLOWLIST, ...(deployment ? [deployment.demoPartner.address] : [])]
  return {
    chains,
    allowlist: new Set(partners.map((address) => address.toLowerCase())),
    deadlineMs: parsed.ONBOARD_DEADLINE_MS,
    sponsorship: {
      partnerOnboardingsPerDay: parsed.SPONSOR_PARTNER_ONBOARDINGS_PER_DAY,
      gasPerOperation: parsed.SPONSOR_GAS_PER_OPERATION,
      dailyGas: parsed.SPONSOR_DAILY_GAS,
    },
  }
}

export type OnboardingSource = 'environment' | 'deployment file' | 'embedded devnet'

export interface OnboardingSetup {
  config: OnboardingConfig
  source: OnboardingSource
  /** the development-chain deployment, when the chains come from one (for relayerConfig) */
  deployment?: DevnetDeployment
  /** stops the embedded development chain, if one was started */
  stop(): Promise<void>
}

/**
 * The one call that decides where the chains come from: CHAIN_<id>_* variables, else DEPLOYMENT_FILE,
 * else (no configuration at all, and only when the entry point passes a starter) development chains
 * started by this process, whose demo partner is allowlisted and whose test key the relayer uses.
 */
export async function setUpOnboarding(env: Env, logger: Logger, startEmbeddedChains?: EmbeddedChainStarter): Promise<OnboardingSetup> {
  const { DEPLOYMENT_FILE } = parseEnv(OnboardingEnv, env, 'onboarding')
  if (chainConfigsFromEnv(env).length > 0) {
    return { config: onboardingConfig(env), source: 'environment', stop: async () => {} }
  }
  if (DEPLOYMENT_FILE) {
    const deployment = await readDeploymentFile(DEPLOYMENT_FILE)
    return { config: onboardingConfig(env, deployment), source: 'deployment file', deployment, stop: async () => {} }
  }
  if (!startEmbeddedChains) {
    throw new ServiceError(
      'config_invalid',
      'invalid configuration for onboarding: no chain configured (set CHAIN_<id>_* or DEPLOYMENT_FILE, or ONBOARDING_ENABLED=false)',
    )
  }
  const devnet = await startEmbeddedChains(logger)
  try {
    return { config: onboardingConfig(env, devnet.deployment), source: 'embedded devnet', deployment: devnet.deployment, stop: devnet.stop }
  } catch (error) {
    await devnet.stop()
    throw error
  }
}
