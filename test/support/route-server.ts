import { pino } from 'pino'
import { createMetrics } from '../../kit/metrics.ts'
import { clientIpResolver } from '../../services/http/client-ip.ts'
import { createHttpServer, type Route } from '../../services/http/http-server.ts'
import { createRateLimits } from '../../services/http/rate-limits.ts'

export interface RouteServer {
  baseUrl: string
  close(): void
}

/**
 * Routes on the real HTTP kit, on a free loopback port, with in-memory budgets. Loopback is a trusted
 * proxy, so a test picks its client IP (and so its own budget) with X-Forwarded-For.
 */
export async function serveRoutes(routes: Route[]): Promise<RouteServer> {
  const logger = pino({ level: 'silent' })
  const server = createHttpServer({
    logger,
    metrics: createMetrics(),
    rateLimits: createRateLimits({ logger }),
    resolveClientIp: clientIpResolver(['127.0.0.1']),
    bodyLimitBytes: 65_536,
  })
  server.addRoutes(routes)
  const port = await server.listen('127.0.0.1', 0)
  return { baseUrl: `http://127.0.0.1:${port}`, close: () => server.close() }
}
