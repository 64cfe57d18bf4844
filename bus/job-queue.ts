// The job queue: work handed from one role to another (the edge queues onboardings, the relayer
// runs them). Jobs have ids chosen by the producer, so adding the same work twice is one job.
// Data and results travel as JSON, as they do through Redis.

export type JobState = 'waiting' | 'active' | 'delayed' | 'completed' | 'failed'

export interface JobRecord<Data, Result> {
  id: string
  state: JobState
  data: Data
  /** set once the job has completed */
  result?: Result
  /** set once the job has failed for good */
  failedReason?: string
  /** attempts finished so far, successful or not */
  attemptsMade: number
}

/** What a handler sees of the job it runs. */
export interface RunningJob<Data> {
  readonly id: string
  readonly data: Data
  /** attempts finished before this one */
  readonly attemptsMade: number
  /** replaces the job's data durably: a later attempt (or another worker, after a crash) sees it */
  updateData(data: Data): Promise<void>
}

/**
 * Returns the job's result. A thrown PermanentJobError fails the job at once; any other error is
 * transient: the job is tried again after a backoff, until its attempts run out.
 */
export type JobHandler<Data, Result> = (job: RunningJob<Data>) => Promise<Result>

export interface JobWorker {
  /** stops taking jobs and waits for the running ones */
  close(): Promise<void>
}

export interface JobQueue<Data, Result> {
  /** 'bullmq' for Redis, 'in-process' for the embedded stand-in */
  readonly kind: 'bullmq' | 'in-process'
  /** adds a job under `id`, unless a job with that id exists (then nothing changes) */
  add(id: string, data: Data): Promise<void>
  get(id: string): Promise<JobRecord<Data, Result> | undefined>
  /**
   * The job's record once it has completed or failed, or as it is when `timeoutMs` has passed;
   * undefined if there is no such job.
   */
  waitUntilFinished(id: string, timeoutMs: number): Promise<JobRecord<Data, Result> | undefined>
  /** runs a failed job again with fresh attempts; does nothing to a job in any other state */
  retry(id: string): Promise<void>
  counts(): Promise<Record<JobState, number>>
  /** starts a worker that runs up to `concurrency` jobs at a time */
  work(handler: JobHandler<Data, Result>, options: JobWorkerOptions): JobWorker
  close(): Promise<void>
}

export interface JobWorkerOptions {
  concurrency: number
  /**
   * Shared queues only: how long the worker holds a job without renewing its lock (renewed every half of
   * it). The job of a worker that died goes back to the queue once its lock has expired and a live worker's
   * stalled-job check (every `stalledIntervalMs`) finds it: within about the sum of the two.
   */
  lockDurationMs?: number
  stalledIntervalMs?: number
}

export interface JobQueueOptions {
  /** the queue's name: letters, digits, '-' and '_' */
  name: string
  /** tries per job, the first included */
  attempts: number
  /** the first retry waits this long; each further one twice as long as the one before */
  backoffMs: number
  /** finished jobs (and their results) are kept this long, so the same id finds them */
  keepFinishedSeconds: number
}

/** Thrown by a handler when trying again cannot help. */
export class PermanentJobError extends Error {
  override readonly name = 'PermanentJobError'
}

/** Delay before retry number `retry` (1 for the first), BullMQ's exponential backoff. */
export function backoffDelayMs(backoffMs: number, retry: number): number {
  return 2 ** (retry - 1) * backoffMs
}

export function emptyCounts(): Record<JobState, number> {
  return { waiting: 0, active: 0, delayed: 0, completed: 0, failed: 0 }
}
