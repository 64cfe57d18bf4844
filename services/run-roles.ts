import { awaitedLater } from '../kit/deferred-start.ts'
import type { Env } from '../kit/env-parsing.ts'
import { ServiceError } from '../kit/errors.ts'
import { createRootLogger, type Logger } from '../kit/logger.ts'
import { createMetrics } from '../kit/metrics.ts'
import { openBus, openRedis } from './open-bus-and-redis.ts'
import { roleReadiness, type ReadinessDetails } from './edge/ops-routes.ts'
import { startEdgeWorkers } from './edge-workers.ts'
import { startOpsServer } from './edge/ops-server.ts'
import type { EmbeddedIndexerStarter } from './indexer/config.ts'
import type { EmbeddedChainStarter } from './onboarding/deployment.ts'
import { processConfig, redisTarget } from './process-env.ts'

export interface RunningRoles {
  /** the edge's HTTP port, when this process runs the edge */
  port: number | undefined
  /** where /metrics, /healthz and /readyz answer (OPS_PORT, or the port picked for 0) */
  opsPort: number
  stop(): Promise<void>
}

export interface RunRolesOptions {
  /** starts development chains when onboarding has no chain configured (`npm start` only) */
  startEmbeddedChains?: EmbeddedChainStarter
  /** starts a stand-in indexed source when no INDEXER_URL_* is set (`npm start` only) */
  startEmbeddedIndexer?: EmbeddedIndexerStarter
}

/**
 * Starts the configured roles in this process on the real engines (NATS_URL, REDIS_URL) or on the
 * embedded stand-ins, and stops them in reverse order. Each role's code is loaded only when the process
 * runs it, so an ingestor never loads the chain or GraphQL libraries, and prices come first.
 */
export async function runRoles(env: Env, logger?: Logger, options: RunRolesOptions = {}): Promise<RunningRoles> {
  const config = processConfig(env)
  const log = logger ?? createRootLogger({ level: config.LOG_LEVEL })
  const metrics = createMetrics()
  // the OpenTelemetry SDK is loaded only when traces are exported
  const tracing = config.OTEL_EXPORTER_OTLP_ENDPOINT
    ? (await import('../kit/tracing.ts')).startTracing({
        serviceName: config.OTEL_SERVICE_NAME,
        endpoint: config.OTEL_EXPORTER_OTLP_ENDPOINT,
      })
    : undefined
  const roles = config.ROLES
  // the relayer alone has no use for the bus
  const bus = roles.some((role) => role !== 'relayer')
    ? await openBus({ url: config.NATS_URL, bucketReplicas: config.NATS_KV_REPLICAS }, config.BUS_NAMESPACE, roles, log)
    : undefined
  const redis = await openRedis(redisTarget(config), log).catch(async (error: unknown) => {
    await bus?.close()
    throw error
  })
  log.info(
    {
      roles: config.ROLES,
      bus: !bus ? 'none' : bus.kind === 'nats' ? 'NATS' : 'embedded (in-process; set NATS_URL for NATS)',
      rateLimitsAndQueue: redis ? 'Redis' : 'embedded (in-memory; set REDIS_URL or REDIS_SENTINELS for Redis)',
      tracing: tracing ? `OTLP to ${config.OTEL_EXPORTER_OTLP_ENDPOINT}` : 'off (set OTEL_EXPORTER_OTLP_ENDPOINT)',
    },
    'starting roles',
  )

  const stoppers: Array<() => Promise<void>> = []
  const readiness = roleReadiness(roles, { bus, redis })
  // The intake (edge) and the relayer share the chains, their clients and the queue. Prices need neither
  // them nor their code, so the chains are reached (or, embedded, started) once the feed and the edge are
  // up; the intake's requests wait for them.
  let pricesUp!: () => void
  const afterPrices = new Promise<void>((resolve) => (pricesUp = resolve))
  // awaited below, after the edge is up (awaitedLater keeps a failure before then from counting as unhandled)
  const onboarding =
    config.ONBOARDING_ENABLED && (roles.includes('edge') || roles.includes('relayer'))
      ? awaitedLater(
          afterPrices.then(async () => {
            const { openOnboardingResources } = await import('./onboarding/onboarding-resources.ts')
            return openOnboardingResources({
              env,
              redis,
              namespace: config.BUS_NAMESPACE,
              logger: log,
              startEmbeddedChains: options.startEmbeddedChains,
            })
          }),
        )
      : undefined
  if (onboarding)
    stoppers.push(() =>
      onboarding.then(
        (resources) => resources.close(),
        () => undefined,
      ),
    )
  let port: number | undefined
  const readinessDetails: ReadinessDetails = new Map()
  // every process, the edge's included, answers the operational routes on a listener of their own (the
  // public port does not, unless OPS_ROUTES_ON_PUBLIC_PORT); first, so probes reach it while roles start
  const ops = await startOpsServer({ host: config.HOST, port: config.OPS_PORT, metrics, readiness, readinessDetails, logger: log })
  stoppers.push(ops.stop)
  for (const role of roles) {
    if (role === 'ingestor') {
      const { startIngestorRole } = await import('./ingestor/role.ts')
      stoppers.push(startIngestorRole({ env, bus: bus!, logger: log, metrics, readinessDetails }).stop)
    }
    if (role === 'edge') {
      const [{ startEdge }, { startEdgeFeatures }] = await Promise.all([import('./edge/edge.ts'), import('./edge/capability-routes.ts')])
      const features = await startEdgeFeatures({
        env,
        bus: bus!,
        redis,
        onboarding,
        afterPrices,
        startEmbeddedIndexer: options.startEmbeddedIndexer,
        logger: log,
        metrics,
      })
      const edge = await startEdge({ env, bus: bus!, redis, logger: log, metrics, features, readiness, readinessDetails })
      port = edge.port
      stoppers.push(edge.stop)
      if (config.EDGE_WORKERS > 1) {
        stoppers.push(startEdgeWorkers({ count: config.EDGE_WORKERS - 1, port, opsPort: config.OPS_PORT, env, logger: log }).stop)
      }
    }
  }
  // prices are served (or this process serves none): onboarding's turn
  pricesUp()
  // A wrong setting (a contract without code, names Trading does not sign with) stops the start. Any other
  // failure to set the chains up (embedded chains that would not start) leaves an edge serving prices, its
  // intake answering 500; a process that would only relay has nothing to do without them and stops.
  const resources = await onboarding?.catch((error: unknown) => {
    if (!roles.includes('edge') || (error instanceof ServiceError && error.code === 'config_invalid')) throw error
    log.error({ err: error }, 'onboarding unavailable: its chains could not be set up; prices and reads go on')
    return undefined
  })
  if (roles.includes('relayer') && resources) {
    const [{ relayerConfig }, { startRelayer }] = await Promise.all([import('./relayer/config.ts'), import('./relayer/relayer.ts')])
    const relayer = startRelayer({
      config: relayerConfig(env, resources.setup.deployment),
      chains: resources.setup.config.chains,
      clients: resources.clients,
      queue: resources.queue,
      sponsorship: { ledger: resources.ledger, ceilings: resources.setup.config.sponsorship },
      logger: log,
      metrics,
    })
    stoppers.push(relayer.stop)
  }

  return {
    port,
    opsPort: ops.port,
    async stop() {
      for (const stop of stoppers.reverse()) await stop()
      await bus?.close()
      // QUIT waits for an answer: with Redis away it would wait for its return
      if (redis?.status === 'ready') await redis.quit()
      else redis?.disconnect()
      await tracing?.shutdown()
    },
  }
}
