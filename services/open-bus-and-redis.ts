import type { Redis } from 'ioredis'
import { inProcessPriceBus } from '../bus/in-process-price-bus.ts'
import type { PriceBus } from '../bus/price-bus.ts'
import { ServiceError } from '../kit/errors.ts'
import type { Logger } from '../kit/logger.ts'
import { maskUrl } from '../kit/redaction.ts'
import { throttledWarning } from '../kit/throttled-warning.ts'
import type { RedisTarget } from './process-env.ts'

/** How long the start waits for a configured Redis before giving up. */
export const REDIS_START_TIMEOUT_MS = 5_000

// The NATS and Redis clients are loaded only by a process configured to use them (the embedded start
// needs neither, and its first price comes sooner without them).

/** NATS when NATS_URL is set, else the in-process bus. Unreachable at start: the start fails, naming NATS_URL. */
export async function openBus(
  nats: { url: string | undefined; bucketReplicas: number },
  namespace: string,
  roles: string[],
  log: Logger,
): Promise<PriceBus> {
  const natsUrl = nats.url
  if (!natsUrl) return inProcessPriceBus()
  const { natsPriceBus } = await import('../bus/nats-price-bus.ts')
  try {
    return await natsPriceBus({
      servers: natsUrl,
      namespace,
      name: `venue-gateway:${roles.join('+')}`,
      bucketReplicas: nats.bucketReplicas,
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
