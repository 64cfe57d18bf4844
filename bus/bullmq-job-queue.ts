import { Job, Queue, QueueEvents, UnrecoverableError, Worker, type JobType } from 'bullmq'
import type { Redis } from 'ioredis'
import type { Logger } from '../kit/logger.ts'
import { throttledWarning } from '../kit/throttled-warning.ts'
import {
  emptyCounts,
  PermanentJobError,
  type JobQueue,
  type JobQueueOptions,
  type JobRecord,
  type JobState,
  type JobWorker,
} from './job-queue.ts'

export interface BullmqJobQueueOptions extends JobQueueOptions {
  /** a connection made with `maxRetriesPerRequest: null`; shared, not closed by the queue */
  redis: Redis
  /** prefix of every Redis key of the queue (per deployment, or per test) */
  prefix: string
  logger: Logger
}

// A job whose worker died this many times fails instead of going back to the queue again.
const MAX_STALLED_COUNT = 3

const STATE_OF: Partial<Record<JobType | 'unknown', JobState>> = {
  waiting: 'waiting',
  wait: 'waiting',
  prioritized: 'waiting',
  'waiting-children': 'waiting',
  active: 'active',
  delayed: 'delayed',
  completed: 'completed',
  failed: 'failed',
}

/** The job queue on Redis with BullMQ: jobs survive restarts, and a job whose worker died is resumed. */
export function bullmqJobQueue<Data, Result>(options: BullmqJobQueueOptions): JobQueue<Data, Result> {
  const log = options.logger.child({ module: 'job-queue', queue: options.name })
  const connection = { connection: options.redis, prefix: options.prefix }
  const queue = new Queue(options.name, {
    ...connection,
    defaultJobOptions: {
      attempts: options.attempts,
      backoff: { type: 'exponential', delay: options.backoffMs },
      removeOnComplete: { age: options.keepFinishedSeconds },
      removeOnFail: { age: options.keepFinishedSeconds },
    },
  })
  // Every waiting caller listens for the queue closing, far more than EventEmitter's default of 10.
  queue.setMaxListeners(0)
  // Each BullMQ object re-emits its connections' errors; without a listener BullMQ prints them as raw
  // stack traces. While Redis is away they repeat with every reconnection attempt: one warning per window.
  const warnRedis = throttledWarning(log, 'job queue: Redis unavailable')
  const reportErrors = (source: string) => (error: Error) => warnRedis(source, { source, err: error })
  queue.on('error', reportErrors('queue'))
  let events: QueueEvents | undefined
  let eventsConnection: Redis | undefined
  const workers = new Set<Worker>()

  const get = async (id: string): Promise<JobRecord<Data, Result> | undefined> => {
    const job = await Job.fromId<Data, Result>(queue, id)
    if (!job) return undefined
    const state = STATE_OF[await job.getState()]
    if (!state) return undefined
    return {
      id,
      state,
      data: job.data,
      ...(state === 'completed' && { result: job.returnvalue }),
      ...(state === 'failed' && { failedReason: job.failedReason }),
      attemptsMade: job.attemptsMade,
    }
  }

  return {
    kind: 'bullmq',
    async add(id, data) {
      // BullMQ ignores an add whose job id exists
      await queue.add(options.name, data, { jobId: id })
    },
    get,
    async waitUntilFinished(id, timeoutMs) {
      const job = await Job.fromId<Data, Result>(queue, id)
      if (!job) return undefined
      // QueueEvents blocks its connection in long reads: on the shared one it would stall every other command
      if (!events) {
        eventsConnection = options.redis.duplicate()
        eventsConnection.on('error', reportErrors('events connection'))
        events = new QueueEvents(options.name, { connection: eventsConnection, prefix: options.prefix })
        events.on('error', reportErrors('events'))
      }
      // Resolves on completion, rejects on failure or at the deadline: either way the record says which.
      await job.waitUntilFinished(events, timeoutMs).catch(() => {})
      return get(id)
    },
    async retry(id) {
      const job = await Job.fromId(queue, id)
      if (!job) return
      try {
        await job.retry('failed', { resetAttemptsMade: true, resetAttemptsStarted: true })
      } catch (error) {
        // another caller may have retried it first; only a job still failed means the retry failed
        if ((await job.getState()) === 'failed') throw error
      }
    },
    async counts() {
      const counts = await queue.getJobCounts('waiting', 'prioritized', 'active', 'delayed', 'completed', 'failed')
      return {
        ...emptyCounts(),
        waiting: (counts.waiting ?? 0) + (counts.prioritized ?? 0),
        active: counts.active ?? 0,
        delayed: counts.delayed ?? 0,
        completed: counts.completed ?? 0,
        failed: counts.failed ?? 0,
      }
    },
    work(handler, { concurrency, lockDurationMs, stalledIntervalMs }): JobWorker {
      const worker = new Worker<Data, Result>(
        options.name,
        async (job) => {
          try {
            return await handler({
              id: job.id!,
              data: job.data,
              attemptsMade: job.attemptsMade,
              updateData: (data) => job.updateData(data),
            })
          } catch (error) {
            if (error instanceof PermanentJobError) throw new UnrecoverableError(error.message)
            throw error
          }
        },
        {
          ...connection,
          concurrency,
          maxStalledCount: MAX_STALLED_COUNT,
          ...(lockDurationMs !== undefined && { lockDuration: lockDurationMs }),
          ...(stalledIntervalMs !== undefined && { stalledInterval: stalledIntervalMs }),
        },
      )
      // Redis trouble and the like; failed attempts are the handler's to report
      worker.on('error', reportErrors('worker'))
      workers.add(worker)
      return {
        async close() {
          workers.delete(worker)
          await worker.close()
        },
      }
    },
    async close() {
      await Promise.all([...workers].map((worker) => worker.close()))
      await events?.close()
      // BullMQ leaves a connection it was handed open: this one is ours
      eventsConnection?.disconnect()
      await queue.close()
    },
  }
}
