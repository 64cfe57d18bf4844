import { startState } from '../kit/deferred-start.ts'
import type { Env } from '../kit/env-parsing.ts'
import { createRootLogger, type Logger } from '../kit/logger.ts'
import { createMetrics } from '../kit/metrics.ts'
import { openEngines } from './engines.ts'
import { roleReadiness, type ReadinessDetails } from './ops/ops-routes.ts'
import { startEdgeWorkers } from './edge-workers.ts'
import type { Edge } from './edge/edge.ts'
import { startOpsServer } from './ops/ops-server.ts'
import type { EmbeddedHistoryStarter } from './candles/history/history-config.ts'
import type { EmbeddedIndexerStarter } from './indexer/config.ts'
import type { EmbeddedChainStarter } from './onboarding/index.ts'
import { startOnboardingAfter } from './onboarding-start.ts'
import { processConfig } from './process-env.ts'

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
  /** starts the History API stand-in when no HISTORY_URL is set (`npm start` only) */
  startEmbeddedHistory?: EmbeddedHistoryStarter
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
  const roles = config.ROLES
  const engines = await openEngines(config, log)
  const { bus, redis } = engines

  const stoppers: Array<() => Promise<void>> = []
  // an edge is ready once it listens, with every route
  let edgeListening = false
  const readiness = {
    ...roleReadiness(roles, { bus, redis }),
    ...(roles.includes('edge') && { routes: () => edgeListening }),
  }
  // what prices do not need starts once the feed and the edge are up
  let pricesUp!: () => void
  const afterPrices = new Promise<void>((resolve) => (pricesUp = resolve))
  const onboarding =
    config.ONBOARDING_ENABLED && (roles.includes('edge') || roles.includes('relayer'))
      ? startOnboardingAfter(afterPrices, {
          env,
          roles,
          redis,
          namespace: config.BUS_NAMESPACE,
          logger: log,
          metrics,
          startEmbeddedChains: options.startEmbeddedChains,
        })
      : undefined
  if (onboarding) stoppers.push(onboarding.stop)
  let port: number | undefined
  let edge: Edge | undefined
  const readinessDetails: ReadinessDetails = new Map()
  // onboarding's chains come up after the prices: /readyz says where they are (`npm run demo:onboard` waits on it)
  if (onboarding) readinessDetails.set('onboarding', startState(onboarding.resources))
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
      const [{ startEdge }, { startEdgeFeatures }] = await Promise.all([import('./edge/edge.ts'), import('./edge/edge-features.ts')])
      // every route is added before the edge listens; what the routes wait for starts after the prices
      const features = await startEdgeFeatures({
        env,
        bus: bus!,
        redis,
        onboarding: onboarding?.resources,
        afterPrices,
        startEmbeddedIndexer: options.startEmbeddedIndexer,
        startEmbeddedHistory: options.startEmbeddedHistory,
        logger: log,
        metrics,
      })
      edge = await startEdge({ env, bus: bus!, redis, logger: log, metrics, features, readiness, readinessDetails })
      edgeListening = true
      port = edge.port
      stoppers.push(edge.stop)
    }
  }
  // prices are served (or this process serves none): onboarding's turn, and the stand-ins the routes wait for
  await edge?.pricesComplete
  pricesUp()
  if (edge && config.EDGE_WORKERS > 1) {
    stoppers.push(startEdgeWorkers({ count: config.EDGE_WORKERS - 1, port: edge.port, opsPort: config.OPS_PORT, env, logger: log }).stop)
  }
  await onboarding?.finish()

  return {
    port,
    opsPort: ops.port,
    async stop() {
      for (const stop of stoppers.reverse()) await stop()
      await engines.close()
    },
  }
}
