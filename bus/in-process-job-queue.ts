import {
  backoffDelayMs,
  emptyCounts,
  PermanentJobError,
  type JobHandler,
  type JobQueue,
  type JobQueueOptions,
  type JobRecord,
  type JobWorker,
} from './job-queue.ts'

interface Entry<Data, Result> {
  record: JobRecord<Data, Result>
  finishedAt?: number
  retryTimer?: NodeJS.Timeout
}

interface Runner<Data, Result> {
  handler: JobHandler<Data, Result>
  concurrency: number
  running: number
  closing: boolean
  idle: Set<() => void>
}

/**
 * The embedded stand-in for the BullMQ queue: one process, no Redis. It keeps BullMQ's semantics
 * (ids, attempts, exponential backoff, data copied as JSON) and nothing more, so code cannot come to
 * rely on something the Redis queue does not do. It does not survive the process.
 */
export function inProcessJobQueue<Data, Result>(options: JobQueueOptions): JobQueue<Data, Result> {
  const entries = new Map<string, Entry<Data, Result>>()
  const waiting: string[] = []
  const finishListeners = new Map<string, Set<() => void>>()
  const runners = new Set<Runner<Data, Result>>()

  const snapshot = (entry: Entry<Data, Result>) => asJson(entry.record)

  const dropExpired = () => {
    const oldest = Date.now() - options.keepFinishedSeconds * 1000
    for (const [id, entry] of entries) if (entry.finishedAt !== undefined && entry.finishedAt < oldest) entries.delete(id)
  }

  const finish = (entry: Entry<Data, Result>, outcome: Pick<JobRecord<Data, Result>, 'state' | 'result' | 'failedReason'>) => {
    Object.assign(entry.record, outcome)
    entry.finishedAt = Date.now()
    for (const listener of finishListeners.get(entry.record.id) ?? []) listener()
  }

  const makeWaiting = (entry: Entry<Data, Result>) => {
    entry.record.state = 'waiting'
    waiting.push(entry.record.id)
    queueMicrotask(pump)
  }

  const run = async (runner: Runner<Data, Result>, entry: Entry<Data, Result>) => {
    const { record } = entry
    record.state = 'active'
    try {
      const result = await runner.handler({
        id: record.id,
        data: asJson(record.data),
        attemptsMade: record.attemptsMade,
        updateData: async (data) => void (record.data = asJson(data)),
      })
      record.attemptsMade++
      finish(entry, { state: 'completed', result: asJson(result) })
    } catch (error) {
      record.attemptsMade++
      const reason = error instanceof Error ? error.message : String(error)
      if (error instanceof PermanentJobError || record.attemptsMade >= options.attempts) {
        finish(entry, { state: 'failed', failedReason: reason })
      } else {
        record.state = 'delayed'
        entry.retryTimer = setTimeout(() => makeWaiting(entry), backoffDelayMs(options.backoffMs, record.attemptsMade))
      }
    } finally {
      runner.running--
      if (runner.running === 0) for (const resolve of runner.idle) resolve()
      pump()
    }
  }

  const pump = () => {
    for (const runner of runners) {
      while (!runner.closing && runner.running < runner.concurrency && waiting.length > 0) {
        const entry = entries.get(waiting.shift()!)
        if (!entry || entry.record.state !== 'waiting') continue
        runner.running++
        void run(runner, entry)
      }
    }
  }

  const closeRunner = async (runner: Runner<Data, Result>) => {
    runner.closing = true
    if (runner.running > 0) await new Promise<void>((resolve) => runner.idle.add(resolve))
    runners.delete(runner)
  }

  return {
    kind: 'in-process',
    async add(id, data) {
      dropExpired()
      if (entries.has(id)) return
      const entry: Entry<Data, Result> = { record: { id, state: 'waiting', data: asJson(data), attemptsMade: 0 } }
      entries.set(id, entry)
      makeWaiting(entry)
    },
    async get(id) {
      const entry = entries.get(id)
      return entry && snapshot(entry)
    },
    async waitUntilFinished(id, timeoutMs) {
      const entry = entries.get(id)
      if (!entry) return undefined
      if (entry.finishedAt === undefined) {
        await new Promise<void>((resolve) => {
          const listeners = finishListeners.get(id) ?? new Set()
          finishListeners.set(id, listeners)
          const done = () => {
            clearTimeout(timer)
            listeners.delete(done)
            if (listeners.size === 0) finishListeners.delete(id)
            resolve()
          }
          const timer = setTimeout(done, timeoutMs)
          listeners.add(done)
        })
      }
      return snapshot(entry)
    },
    async retry(id) {
      const entry = entries.get(id)
      if (entry?.record.state !== 'failed') return
      entry.finishedAt = undefined
      entry.record.attemptsMade = 0
      delete entry.record.failedReason
      makeWaiting(entry)
    },
    async counts() {
      const counts = emptyCounts()
      for (const { record } of entries.values()) counts[record.state]++
      return counts
    },
    work(handler, { concurrency }): JobWorker {
      const runner: Runner<Data, Result> = { handler, concurrency, running: 0, closing: false, idle: new Set() }
      runners.add(runner)
      queueMicrotask(pump)
      return { close: () => closeRunner(runner) }
    },
    async close() {
      for (const entry of entries.values()) clearTimeout(entry.retryTimer)
      await Promise.all([...runners].map(closeRunner))
    },
  }
}

/** A deep copy through JSON, as data and results are stored in Redis. */
function asJson<T>(value: T): T {
  return value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T)
}
