import type { Redis } from 'ioredis'
import { bullmqJobQueue } from './bullmq-job-queue.ts'
import { inProcessJobQueue } from './in-process-job-queue.ts'
import type { JobQueue, JobQueueOptions } from './job-queue.ts'
import type { Logger } from '../kit/logger.ts'
import { queueKeyPrefix } from './queues.ts'

export interface CreateJobQueueOptions extends JobQueueOptions {
  /** BullMQ on this Redis connection (made with `maxRetriesPerRequest: null`); in-process when absent */
  redis?: Redis
  /** BUS_NAMESPACE: prefixes the queue's Redis keys, so several environments can share one Redis */
  namespace?: string
  logger: Logger
}

/** The BullMQ queue when Redis is configured, else the in-process stand-in. */
export function createJobQueue<Data, Result>(options: CreateJobQueueOptions): JobQueue<Data, Result> {
  const { redis, namespace = '', ...rest } = options
  if (!redis) return inProcessJobQueue(rest)
  return bullmqJobQueue({ ...rest, redis, prefix: queueKeyPrefix(namespace) })
}
