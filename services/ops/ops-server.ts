import type { Logger } from '../../kit/logger.ts'
import type { Metrics } from '../../kit/metrics.ts'
import { createHttpServer } from '../http/http-server.ts'
import { createRateLimits } from '../http/rate-limits.ts'
import { opsRoutes, type ReadinessChecks, type ReadinessDetails } from './ops-routes.ts'

/** /metrics, /healthz and /readyz on a listener of their own (OPS_PORT), in every process. */
export async function startOpsServer(options: {
  host: string
  port: number
  metrics: Metrics
  readiness: ReadinessChecks
  readinessDetails?: ReadinessDetails
  logger: Logger
}): Promise<{ port: number; stop(): Promise<void> }> {
  const server = createHttpServer({
    logger: options.logger,
    metrics: options.metrics,
    rateLimits: createRateLimits({ enabled: false, logger: options.logger }),
    resolveClientIp: (peer) => peer,
    bodyLimitBytes: 0,
  })
  server.addRoutes(opsRoutes(options.metrics, options.readiness, options.readinessDetails))
  const port = await server.listen(options.host, options.port)
  options.logger.info({ host: options.host, port }, 'ops endpoints listening')
  return { port, stop: async () => server.close() }
}
