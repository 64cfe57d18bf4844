import { createMetrics, type Metrics } from '../../kit/metrics.ts'
import { clientIpResolver } from '../../services/http/client-ip.ts'
import { createHttpServer, type HttpServerOptions, type Route } from '../../services/http/http-server.ts'
import { createRateLimits } from '../../services/http/rate-limits.ts'
import { silentLogger } from './silent-logger.ts'

export interface RouteServer {
  baseUrl: string
  port: number
  /** the metrics the server counts into */
  metrics: Metrics
  close(): void
}

/**
 * Routes on the real HTTP kit, on a free loopback port, with in-memory budgets. Loopback is a trusted
 * proxy, so a test picks its client IP (and so its own budget) with X-Forwarded-For. A test that needs other
 * settings (budgets in Redis or lifted, the peer's own address, allowed origins) overrides them.
 */
export async function serveRoutes(routes: Route[], overrides: Partial<HttpServerOptions> = {}): Promise<RouteServer> {
  const logger = overrides.logger ?? silentLogger()
  const metrics = overrides.metrics ?? createMetrics()
  const server = createHttpServer({
    logger,
    metrics,
    rateLimits: createRateLimits({ logger }),
    resolveClientIp: clientIpResolver(['127.0.0.1']),
    bodyLimitBytes: 65_536,
    ...overrides,
  })
  server.addRoutes(routes)
  const port = await server.listen('127.0.0.1', 0)
  return { baseUrl: `http://127.0.0.1:${port}`, port, metrics, close: () => server.close() }
}
