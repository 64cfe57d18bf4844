import type { Env } from '../kit/env-parsing.ts'
import { ServiceError } from '../kit/errors.ts'
import { secretsOfUrl } from '../kit/redaction.ts'
import { candlesConfig } from './candles/config.ts'
import { historyConfig } from './candles/history/history-config.ts'
import { edgeConfig } from './edge/config.ts'
import { indexerConfig, NO_INDEXED_SOURCE } from './indexer/config.ts'
import { ingestorConfig } from './ingestor/config.ts'
import { chainConfigsFromEnv, onboardingEnv, relayerConfig } from './onboarding/index.ts'
import { processConfig, type ProcessConfig } from './process-env.ts'
import { subgraphDoorConfig } from './subgraph-door/config.ts'

export interface CheckedConfiguration {
  process: ProcessConfig
  /** secret values the configuration holds, for the logger to mask wherever they appear */
  secrets: string[]
}

/**
 * Parses the whole configuration of every role this process runs, before anything starts: every wrong
 * value is reported at once, each naming the variable, its value and what is allowed. Roles parse their
 * part again when they start (cheap); this check is what makes a mistake fail in well under a second.
 */
export function checkConfiguration(env: Env, options: { embeddedChains: boolean; embeddedIndexer: boolean }): CheckedConfiguration {
  const problems: string[] = []
  const attempt = <T>(parse: () => T): T | undefined => {
    try {
      return parse()
    } catch (error) {
      problems.push(error instanceof Error ? error.message : String(error))
      return undefined
    }
  }
  const process = attempt(() => processConfig(env))
  const roles = process?.ROLES ?? []
  const secrets: string[] = []
  if (roles.includes('ingestor')) {
    const ingestor = attempt(() => ingestorConfig(env))
    if (ingestor?.hermesApiKey) secrets.push(ingestor.hermesApiKey.reveal())
  }
  if (roles.includes('edge')) {
    const edge = attempt(() => edgeConfig(env))
    // both listen with SO_REUSEPORT: on one port the kernel would spread public connections over the ops listener
    if (process && edge && edge.PORT !== 0 && opsPortsOverlap(process, edge.PORT)) {
      problems.push(
        `invalid configuration for process: OPS_PORT=${JSON.stringify(String(process.OPS_PORT))}: must not be PORT, nor put an edge worker's (OPS_PORT + n) on it`,
      )
    }
    const candles = attempt(() => candlesConfig(env))
    const history = candles && attempt(() => historyConfig(env, candles.CANDLES_KEEP_PER_RESOLUTION))
    if (history?.apiKey) secrets.push(history.apiKey.reveal())
    attempt(() => subgraphDoorConfig(env))
    const indexer = attempt(() => indexerConfig(env))
    if (indexer && !indexer.urls && !options.embeddedIndexer) problems.push(NO_INDEXED_SOURCE)
  }
  if (process?.ONBOARDING_ENABLED && (roles.includes('edge') || roles.includes('relayer'))) {
    const onboarding = attempt(() => onboardingEnv(env))
    const chains = attempt(() => chainConfigsFromEnv(env)) ?? []
    if (onboarding && chains.length === 0 && !onboarding.DEPLOYMENT_FILE && !options.embeddedChains) {
      problems.push(
        'invalid configuration for onboarding: no chain configured (set CHAIN_<id>_* or DEPLOYMENT_FILE, or ONBOARDING_ENABLED=false)',
      )
    }
    // with a deployment file or the embedded chains the relayer may use their public test key
    if (roles.includes('relayer') && chains.length > 0) {
      const relayer = attempt(() => relayerConfig(env))
      if (relayer) secrets.push(relayer.privateKey.reveal())
    }
  }
  if (problems.length > 0 || !process) throw new ServiceError('config_invalid', problems.join('; '))
  for (const [name, value] of Object.entries(env)) {
    if (value && /URL/.test(name)) secrets.push(...value.split(',').flatMap((url) => secretsOfUrl(url.trim())))
  }
  if (env.RELAYER_PRIVATE_KEY) secrets.push(env.RELAYER_PRIVATE_KEY)
  return { process, secrets }
}

/** Whether the public port is one of the ops ports: OPS_PORT and, with edge workers, the ones after it. */
function opsPortsOverlap(process: ProcessConfig, publicPort: number): boolean {
  return process.OPS_PORT !== 0 && publicPort >= process.OPS_PORT && publicPort < process.OPS_PORT + process.EDGE_WORKERS
}
