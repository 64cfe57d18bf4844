import { randomUUID } from 'node:crypto'
import type { Redis } from 'ioredis'
import { type Logger } from 'pino'
import type { Address } from 'viem'
import type { Env } from '../../kit/env-parsing.ts'
import { createMetrics, type Metrics } from '../../kit/metrics.ts'
import type { DevnetDeployment } from '../../services/venue-contracts/deployment-record.ts'
import type { HttpServerOptions } from '../../services/http/http-server.ts'
import {
  onboardingConfig,
  onboardingRoutes,
  relayerConfig,
  type ChainClients,
  type ChainConfig,
  type OnboardingConfig,
  type OnboardingQueue,
  type Relayer,
  type SponsorshipLedger,
  onboardingTools,
} from '../../services/onboarding/index.ts'
import { serveRoutes } from './route-server.ts'
import { silentLogger } from './silent-logger.ts'

const { checkChains, createChainClients, createOnboardingQueue, createSponsorshipLedger, startRelayer } = await onboardingTools()

export interface OnboardingStackOptions {
  deployment: DevnetDeployment
  allowlist: Address[]
  /** BullMQ on this Redis; the in-process queue when absent */
  redis?: Redis
  /** the queue's key prefix; a fresh one by default, the same one for a second replica */
  namespace?: string
  deadlineMs?: number
  /** false: the relayer is started later with startRelayer() */
  relayer?: boolean
  /** changes a chain's settings, e.g. its RPC URL to a fault-injecting proxy */
  adjustChain?: (chain: ChainConfig) => ChainConfig
  logger?: Logger
  /** more onboarding variables, e.g. the sponsorship ceilings (SPONSOR_*) */
  env?: Env
  /** more relayer variables, e.g. RELAYER_CONCURRENCY */
  relayerEnv?: Env
  /** the HTTP server's settings other than the defaults of `serveRoutes`, e.g. budgets lifted */
  http?: Partial<HttpServerOptions>
}

/** The intake's routes on a real HTTP server and a relayer, on one queue: what the edge and relayer roles run. */
export interface OnboardingStack {
  baseUrl: string
  namespace: string
  config: OnboardingConfig
  clients: ChainClients
  queue: OnboardingQueue
  /** the sponsorship policy's counts, shared by the intake and the relayers */
  ledger: SponsorshipLedger
  /** the intake's and the relayers' metrics */
  metrics: Metrics
  startRelayer(): Relayer
  stop(): Promise<void>
}

export async function startOnboardingStack(options: OnboardingStackOptions): Promise<OnboardingStack> {
  const logger = options.logger ?? silentLogger()
  const namespace = options.namespace ?? `t${randomUUID().slice(0, 8)}`
  const env = {
    ONBOARD_ALLOWLIST: options.allowlist.join(','),
    ONBOARD_DEADLINE_MS: String(options.deadlineMs ?? 20_000),
    ...options.env,
  }
  const parsed = onboardingConfig(env, options.deployment)
  const config = { ...parsed, chains: parsed.chains.map(options.adjustChain ?? ((chain) => chain)) }
  const clients = createChainClients(config.chains)
  const checks = await checkChains(config.chains, clients, logger).catch((error: unknown) => {
    clients.close()
    throw error
  })
  const queue = createOnboardingQueue({ redis: options.redis, namespace, backoffMs: 100, logger })
  const ledger = createSponsorshipLedger({ ceilings: config.sponsorship, redis: options.redis, namespace })
  const metrics = createMetrics()
  const server = await serveRoutes(
    onboardingRoutes(Promise.resolve({ config, chains: clients, support: checks.support, queue, ledger, metrics }), {
      readyWithinMs: config.deadlineMs,
    }),
    options.http,
  )
  const relayers: Relayer[] = []
  const start = () => {
    const relayer = startRelayer({
      config: relayerConfig(
        { RELAYER_POLLING_INTERVAL_MS: '50', RELAYER_RECEIPT_TIMEOUT_MS: '20000', ...options.relayerEnv },
        options.deployment,
      ),
      chains: config.chains,
      clients,
      queue,
      sponsorship: { ledger, ceilings: config.sponsorship },
      logger,
      metrics,
    })
    relayers.push(relayer)
    return relayer
  }
  if (options.relayer !== false) start()
  return {
    baseUrl: server.baseUrl,
    namespace,
    config,
    clients,
    queue,
    ledger,
    metrics,
    startRelayer: start,
    async stop() {
      checks.stop()
      server.close()
      for (const relayer of relayers) await relayer.stop()
      await queue.close()
      clients.close()
    },
  }
}
