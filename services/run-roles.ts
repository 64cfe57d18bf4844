import { Redis } from 'ioredis'
import type { Env } from '../kit/config.ts'
import { inProcessPriceBus } from '../bus/in-process-price-bus.ts'
import { createRootLogger, type Logger } from '../kit/logger.ts'
import { createMetrics } from '../kit/metrics.ts'
import { throttledWarning } from '../kit/throttled-warning.ts'
import { startTracing } from '../kit/tracing.ts'
import { natsPriceBus } from '../bus/nats-price-bus.ts'
import type { PriceBus } from '../bus/price-bus.ts'
import { startEdge } from './edge/edge.ts'
import { startEdgeFeatures } from './edge/edge-features.ts'
import { roleReadiness } from './edge/ops-routes.ts'
import { startOpsServer } from './edge/ops-server.ts'
import { startIngestorRole } from './ingestor/role.ts'
import type { EmbeddedChainStarter } from './onboarding/deployment.ts'
import { openOnboardingResources } from './onboarding/onboarding-resources.ts'
import { relayerConfig } from './relayer/config.ts'
import { startRelayer } from './relayer/relayer.ts'
import { processConfig, type Role } from './process-config.ts'

export interface RunningRoles {
  /** the edge's HTTP port, when this process runs the edge */
  port: number | undefined
  stop(): Promise<void>
}

/**
 * Starts the configured roles in this process on the real engines (NATS_URL, REDIS_URL) or on the
 * embedded stand-ins, and stops them in reverse order.
 */
export interface RunRolesOptions {
  /** starts development chains when onboarding has no chain configured (`npm start` only) */
  startEmbeddedChains?: EmbeddedChainStarter
}

export async function runRoles(env: Env, logger?: Logger, options: RunRolesOptions = {}): Promise<RunningRoles> {
  const config = processConfig(env)
  const log = logger ?? createRootLogger({ level: config.LOG_LEVEL })
  const metrics = createMetrics()
  const tracing = config.OTEL_EXPORTER_OTLP_ENDPOINT
    ? startTracing({ serviceName: config.OTEL_SERVICE_NAME, endpoint: config.OTEL_EXPORTER_OTLP_ENDPOINT })
    : undefined
  const roles: Role[] = config.ROLES
  // the relayer alone has no use for the bus
  const bus = roles.some((role) => role !== 'relayer') ? await openBus(config.NATS_URL, config.BUS_NAMESPACE, roles, log) : undefined
  const redis = config.REDIS_URL ? new Redis(config.REDIS_URL, { maxRetriesPerRequest: null, lazyConnect: false }) : undefined
  if (redis) logRedisErrors(redis, log)
  log.info(
    {
      roles: config.ROLES,
      bus: !bus ? 'none' : bus.kind === 'nats' ? 'NATS' : 'embedded (in-process; set NATS_URL for NATS)',
      rateLimitsAndQueue: redis ? 'Redis' : 'embedded (in-memory; set REDIS_URL for Redis)',
      tracing: tracing ? `OTLP to ${config.OTEL_EXPORTER_OTLP_ENDPOINT}` : 'off (set OTEL_EXPORTER_OTLP_ENDPOINT)',
    },
    'starting roles',
  )

  const stoppers: Array<() => Promise<void>> = []
  const readiness = roleReadiness(roles, { bus, redis })
  // the intake (edge) and the relayer share the chains, their clients and the queue
  const onboarding =
    config.ONBOARDING_ENABLED && (roles.includes('edge') || roles.includes('relayer'))
      ? await openOnboardingResources({
          env,
          redis,
          namespace: config.BUS_NAMESPACE,
          logger: log,
          startEmbeddedChains: options.startEmbeddedChains,
        })
      : undefined
  if (onboarding) stoppers.push(onboarding.close)
  let port: number | undefined
  for (const role of roles) {
    if (role === 'ingestor') stoppers.push(startIngestorRole({ env, bus: bus!, logger: log, metrics }).stop)
    if (role === 'edge') {
      const features = await startEdgeFeatures({ env, bus: bus!, redis, onboarding, logger: log, metrics })
      const edge = await startEdge({ env, bus: bus!, redis, logger: log, metrics, features, readiness })
      port = edge.port
      stoppers.push(edge.stop)
    }
    if (role === 'relayer' && onboarding) {
      const relayer = startRelayer({
        config: relayerConfig(env, onboarding.setup.deployment),
        chains: onboarding.setup.config.chains,
        clients: onboarding.clients,
        queue: onboarding.queue,
        logger: log.child({ role: 'relayer' }),
        metrics,
      })
      stoppers.push(relayer.stop)
    }
  }

  if (port === undefined) {
    const ops = await startOpsServer({
      host: config.HOST,
      port: config.OPS_PORT,
      metrics,
      readiness,
      logger: log,
    })
    stoppers.push(ops.stop)
  }

  return {
    port,
    async stop() {
      for (const stop of stoppers.reverse()) await stop()
      await bus?.close()
      await redis?.quit()
      await tracing?.shutdown()
    },
  }
}

/** ioredis retries every second or two while Redis is away: one warning per window, with the count. */
function logRedisErrors(redis: Redis, log: Logger): void {
  const warn = throttledWarning(log, 'Redis connection error')
  redis.on('error', (error: Error) => warn('redis', { err: error }))
}

async function openBus(natsUrl: string | undefined, namespace: string, roles: string[], log: Logger): Promise<PriceBus> {
  if (!natsUrl) return inProcessPriceBus()
  return natsPriceBus({ servers: natsUrl, namespace, name: `venue-gateway:${roles.join('+')}`, logger: log })
}
