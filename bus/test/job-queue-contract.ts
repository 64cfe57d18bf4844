// One contract for every JobQueue adapter: the in-process one must behave as the BullMQ one does.
import type { Test } from 'tap'
import { PermanentJobError, type JobQueue, type JobQueueOptions } from '../job-queue.ts'
import { waitFor } from '../../test/support/wait.ts'

interface Data {
  n: number
  note?: string
}
interface Result {
  doubled: number
}

/** Opens a fresh queue (its own name or key prefix); a second call with the same `shareWith` reaches the same jobs. */
export type OpenQueue = (options: JobQueueOptions, shareWith?: JobQueue<Data, Result>) => Promise<JobQueue<Data, Result>>

const options: JobQueueOptions = { name: 'contract', attempts: 3, backoffMs: 20, keepFinishedSeconds: 60 }

export function jobQueueContract(t: Test, open: OpenQueue): void {
  const openQueue = async (t: Test, overrides: Partial<JobQueueOptions> = {}, shareWith?: JobQueue<Data, Result>) => {
    const queue = await open({ ...options, ...overrides }, shareWith)
    t.teardown(() => queue.close())
    return queue
  }

  t.test('runs a job and gives every waiter its result', async (t) => {
    const queue = await openQueue(t)
    queue.work(async (job) => ({ doubled: job.data.n * 2 }), { concurrency: 1 })
    await queue.add('job-1', { n: 21 })
    const [first, second] = await Promise.all([queue.waitUntilFinished('job-1', 5000), queue.waitUntilFinished('job-1', 5000)])
    const expected = { id: 'job-1', state: 'completed', data: { n: 21 }, result: { doubled: 42 }, attemptsMade: 1 }
    t.same(first, expected)
    t.same(second, expected)
    t.same(await queue.get('job-1'), expected)
  })

  t.test('adding an existing id changes nothing and runs nothing again', async (t) => {
    const queue = await openQueue(t)
    const runs: number[] = []
    queue.work(async (job) => (runs.push(job.data.n), { doubled: job.data.n * 2 }), { concurrency: 2 })
    await Promise.all([queue.add('same', { n: 1 }), queue.add('same', { n: 2 })])
    const finished = await queue.waitUntilFinished('same', 5000)
    await queue.add('same', { n: 3 })
    t.equal(runs.length, 1, 'one run')
    t.same(finished?.result, { doubled: runs[0]! * 2 })
    t.same((await queue.get('same'))?.data, { n: runs[0] })
    t.same(await queue.counts(), { waiting: 0, active: 0, delayed: 0, completed: 1, failed: 0 })
  })

  t.test('a transient failure is retried after a backoff, and the retry sees the updated data', async (t) => {
    const queue = await openQueue(t)
    const seen: Array<{ attemptsMade: number; note?: string }> = []
    queue.work(
      async (job) => {
        seen.push({ attemptsMade: job.attemptsMade, ...(job.data.note && { note: job.data.note }) })
        if (job.attemptsMade < 2) {
          await job.updateData({ ...job.data, note: `attempt ${job.attemptsMade + 1}` })
          throw new Error('node unreachable')
        }
        return { doubled: job.data.n * 2 }
      },
      { concurrency: 1 },
    )
    const startedAt = Date.now()
    await queue.add('flaky', { n: 5 })
    const finished = await queue.waitUntilFinished('flaky', 5000)
    t.same(finished, { id: 'flaky', state: 'completed', data: { n: 5, note: 'attempt 2' }, result: { doubled: 10 }, attemptsMade: 3 })
    t.same(seen, [{ attemptsMade: 0 }, { attemptsMade: 1, note: 'attempt 1' }, { attemptsMade: 2, note: 'attempt 2' }])
    t.ok(Date.now() - startedAt >= 20 + 40, 'waited 20 ms, then 40 ms')
  })

  t.test('a permanent failure fails the job at once', async (t) => {
    const queue = await openQueue(t)
    let runs = 0
    queue.work(
      async () => {
        runs++
        throw new PermanentJobError('chain 1 is not served')
      },
      { concurrency: 1 },
    )
    await queue.add('doomed', { n: 1 })
    const finished = await queue.waitUntilFinished('doomed', 5000)
    t.same(finished, { id: 'doomed', state: 'failed', data: { n: 1 }, failedReason: 'chain 1 is not served', attemptsMade: 1 })
    t.equal(runs, 1)
  })

  t.test('a job fails once its attempts run out; retry gives it fresh attempts', async (t) => {
    const queue = await openQueue(t, { attempts: 2 })
    let healthy = false
    queue.work(
      async (job) => {
        if (!healthy) throw new Error('bundler down')
        return { doubled: job.data.n * 2 }
      },
      { concurrency: 1 },
    )
    await queue.add('outage', { n: 4 })
    const failed = await queue.waitUntilFinished('outage', 5000)
    t.same(failed, { id: 'outage', state: 'failed', data: { n: 4 }, failedReason: 'bundler down', attemptsMade: 2 })
    healthy = true
    await queue.retry('outage')
    const finished = await queue.waitUntilFinished('outage', 5000)
    t.same(finished, { id: 'outage', state: 'completed', data: { n: 4 }, result: { doubled: 8 }, attemptsMade: 1 })
    await queue.retry('outage')
    t.equal((await queue.get('outage'))?.state, 'completed', 'retry leaves a completed job alone')
  })

  t.test('waiting ends at the deadline with the job as it is; unknown ids are undefined', async (t) => {
    const queue = await openQueue(t)
    await queue.add('unworked', { n: 1 })
    const startedAt = Date.now()
    t.same(await queue.waitUntilFinished('unworked', 100), { id: 'unworked', state: 'waiting', data: { n: 1 }, attemptsMade: 0 })
    t.ok(Date.now() - startedAt >= 95, 'waited until the deadline')
    t.equal(await queue.waitUntilFinished('nothing', 100), undefined)
    t.equal(await queue.get('nothing'), undefined)
  })

  t.test('jobs added before any worker wait for one; a worker runs at most `concurrency` at a time', async (t) => {
    const queue = await openQueue(t)
    for (let n = 1; n <= 6; n++) await queue.add(`batch-${n}`, { n })
    t.same(await queue.counts(), { waiting: 6, active: 0, delayed: 0, completed: 0, failed: 0 })
    let running = 0
    let mostAtOnce = 0
    const releases: Array<() => void> = []
    queue.work(
      async (job) => {
        running++
        mostAtOnce = Math.max(mostAtOnce, running)
        await new Promise<void>((resolve) => releases.push(resolve))
        running--
        return { doubled: job.data.n * 2 }
      },
      { concurrency: 2 },
    )
    await waitFor(() => releases.length === 2, { what: 'two running jobs' })
    t.same(await queue.counts(), { waiting: 4, active: 2, delayed: 0, completed: 0, failed: 0 })
    for (let released = 0; released < 6; released++) {
      await waitFor(() => releases.length > 0, { what: 'a running job' })
      releases.shift()!()
    }
    for (let n = 1; n <= 6; n++) t.equal((await queue.waitUntilFinished(`batch-${n}`, 5000))?.state, 'completed')
    t.equal(mostAtOnce, 2)
  })

  t.test('a second handle on the same queue sees the jobs and their results', async (t) => {
    const producer = await openQueue(t)
    const consumer = await openQueue(t, {}, producer)
    consumer.work(async (job) => ({ doubled: job.data.n * 2 }), { concurrency: 1 })
    await producer.add('across', { n: 7 })
    t.same((await producer.waitUntilFinished('across', 5000))?.result, { doubled: 14 })
  })
}
