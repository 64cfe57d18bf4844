import type { Redis } from 'ioredis'
import { createJobQueue } from '../../bus/create-job-queue.ts'
import type { Logger } from '../../kit/logger.ts'
import { QUEUES } from '../../bus/queues.ts'
import type { OnboardingQueue, RelayJobData, RelayJobResult } from './relay-job.ts'

// The queue the intake hands relay jobs to (BullMQ on Redis, or in-process); the jobs themselves are relay-job.ts.

export const ONBOARDING_QUEUE_DEFAULTS = {
  /** tries per onboarding; transient failures (RPC, bundler) use them up */
  attempts: 5,
  /** retries wait 1 s, 2 s, 4 s, 8 s */
  backoffMs: 1000,
  /** outcomes are kept a day: the same request posted again within it gets the same answer */
  keepFinishedSeconds: 24 * 60 * 60,
}

export interface OnboardingQueueOptions extends Partial<typeof ONBOARDING_QUEUE_DEFAULTS> {
  /** BullMQ on this Redis connection; the in-process queue when absent */
  redis?: Redis
  namespace?: string
  logger: Logger
}

/** The onboarding queue; the intake and the relayer each open it, on the same Redis in a cluster. */
export function createOnboardingQueue(options: OnboardingQueueOptions): OnboardingQueue {
  return createJobQueue<RelayJobData, RelayJobResult>({ ...ONBOARDING_QUEUE_DEFAULTS, ...options, name: QUEUES.onboarding })
}
