import type { Redis } from 'ioredis'
import { inProcessPriceBus } from '../bus/in-process-price-bus.ts'
import type { PriceBus } from '../bus/price-bus.ts'
import { ServiceError } from '../kit/errors.ts'
import type { Logger } from '../kit/logger.ts'
import { maskUrl } from '../kit/redaction.ts'
import { throttledWarning } from '../kit/throttled-warning.ts'
import { redisTarget, type ProcessConfig, type RedisTarget } from './process-env.ts'

/** How long the start waits for a configured Redis before giving up. */
export const REDIS_START_TIMEOUT_MS = 5_000

// The engines a process runs on: the bus, Redis and the trace exporter. The NATS and Redis clients and the
// OpenTelemetry SDK are loaded only by a process configured to use them (the embedded start needs none of
// them, and its first price comes sooner without them).

export interface Engines {
  /** none for a process that runs only the relayer */
  bus: PriceBus | undefined
  redis: Redis | undefined
  close(): Promise<void>
}

/** Opens what the process's configuration names (or the embedded stand-ins) and logs which. */
export async function openEngines(config: ProcessConfig, log: Logger): Promise<Engines> {
  const tracing = config.OTEL_EXPORTER_OTLP_ENDPOINT
    ? (await import('../kit/tracing.ts')).startTracing({
        serviceName: config.OTEL_SERVICE_NAME,
        endpoint: config.OTEL_EXPORTER_OTLP_ENDPOINT,
      })
    : undefined
  // the relayer alone has no use for the bus
  const bus = config.ROLES.some((role) => role !== 'relayer')
    ? await openBus(
        {
          url: config.NATS_URL,
          bucketReplicas: config.NATS_KV_REPLICAS,
          // 0: as many as the bucket, which natsPriceBus falls back to
          tickStreamReplicas: config.NATS_TICK_STREAM_REPLICAS || undefined,
          resumeWindowSeconds: config.STREAM_RESUME_WINDOW_SECONDS,
        },
        config.BUS_NAMESPACE,
        config.ROLES,
        log,
      )
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
  return {
    bus,
    redis,
    async close() {
      await bus?.close()
      // QUIT waits for an answer: with Redis away it would wait for its return
      if (redis?.status === 'ready') await redis.quit()
      else redis?.disconnect()
      await tracing?.shutdown()
    },
  }
}

/** NATS when NATS_URL is set, else the in-process bus. Unreachable at start: the start fails, naming NATS_URL. */
export async function openBus(
  nats: { url: string | undefined; bucketReplicas: number; tickStreamReplicas?: number; resumeWindowSeconds: number },
  namespace: string,
  roles: string[],
  log: Logger,
): Promise<PriceBus> {
  const natsUrl = nats.url
  if (!natsUrl) return inProcessPriceBus({ resumeWindowSeconds: nats.resumeWindowSeconds })
  const { natsPriceBus } = await import('../bus/nats-price-bus.ts')
  try {
    return await natsPriceBus({
      servers: natsUrl,
      namespace,
      name: `venue-gateway:${roles.join('+')}`,
      bucketReplicas: nats.bucketReplicas,
      tickStreamReplicas: nats.tickStreamReplicas,
      resumeWindowSeconds: nats.resumeWindowSeconds,
      publishes: roles.includes('ingestor'),
      logger: log,
    })
  } catch (error) {
    throw unreachable('NATS_URL', natsUrl, error)
  }
}

/**
 * Redis when REDIS_URL or REDIS_SENTINELS is set. Unreachable at start: the start fails, naming the
 * variable (an operator who configured shared budgets and a shared queue wants them, not a replica quietly
 * running alone). Lost later: budgets fall back to each replica's memory, /readyz says so, and the
 * connection errors are logged once per 10 s with how many were suppressed. Through Sentinel, ioredis asks
 * the Sentinels for the primary on every (re)connection and follows a promotion; BullMQ's connections are
 * duplicates of this one and follow it too.
 */
export async function openRedis(target: RedisTarget | undefined, log: Logger): Promise<Redis | undefined> {
  if (!target) return undefined
  const { Redis } = await import('ioredis')
  const options = { maxRetriesPerRequest: null, lazyConnect: true, connectTimeout: REDIS_START_TIMEOUT_MS }
  const redis =
    'url' in target
      ? new Redis(target.url, options)
      : // a replica that answers READONLY after a failover makes ioredis reconnect and ask the Sentinels again
        new Redis({ ...options, sentinels: target.sentinels, name: target.name, role: 'master', reconnectOnError: isReadOnlyError })
  const warn = throttledWarning(log, 'Redis connection error')
  let started = false
  let firstError: Error | undefined
  redis.on('error', (error: Error) => {
    if (started) warn('redis', { err: error })
    else firstError ??= error
  })
  try {
    await withTimeout(redis.connect(), REDIS_START_TIMEOUT_MS)
  } catch (error) {
    redis.disconnect()
    throw 'url' in target
      ? unreachable('REDIS_URL', target.url, firstError ?? error)
      : unreachable('REDIS_SENTINELS', target.sentinels.map(({ host, port }) => `${host}:${port}`).join(','), firstError ?? error)
  }
  started = true
  return redis
}

const isReadOnlyError = (error: Error) => error.message.startsWith('READONLY')

function unreachable(variable: string, url: string, cause: unknown): ServiceError {
  const reason = cause instanceof Error ? cause.message : String(cause)
  return new ServiceError('config_invalid', `${variable}=${JSON.stringify(maskUrl(url))}: cannot connect (${reason})`, { cause })
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms)
  })
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer))
}
