// Which test file runs when: as many at once as the cores allow, the longest first. A file weighs one core when
// it starts or drives a development chain, Chromium, the embedded start or a CPU-bound workload, and half a core
// otherwise (most files spend most of their time waiting on what they started); the files running at once never
// weigh more than the cores, so a slow machine runs fewer at once instead of overloading its cores. Files start
// in their order (none jumps a heavier file that does not fit yet), except that a file whose shared server is
// still starting, or whose exclusive resource another file holds, lets the next go first.
import type { Fixture } from './shared-fixture.ts'

export interface TestJob {
  file: string
  /** cores' worth: 1 or 0.5 */
  weight: number
  /** the shared servers it needs up before it starts */
  fixtures: Fixture[]
  /** what no two running files may use at once (a file both write or read at a fixed path) */
  exclusive: string[]
}

export interface Schedule<R> {
  /** cores' worth of work at once */
  capacity: number
  run(job: TestJob): Promise<R>
  /** the result of a file that could not run: one of its shared servers failed to start */
  notRun(job: TestJob, fixture: Fixture): R
  /** each result as it comes */
  onResult(result: R): void
}

export function runScheduled<R>(jobs: TestJob[], schedule: Schedule<R>): Promise<R[]> {
  const pending = [...jobs]
  const running = new Set<TestJob>()
  const held = () => new Set([...running].flatMap((job) => job.exclusive))
  const results: R[] = []
  let used = 0
  return new Promise((resolveAll) => {
    const finish = (result: R) => {
      results.push(result)
      schedule.onResult(result)
    }
    const stillNeeded = (fixture: Fixture) => [...pending, ...running].some((job) => job.fixtures.includes(fixture))
    const release = (job: TestJob) => {
      for (const fixture of job.fixtures) if (!stillNeeded(fixture)) void fixture.stop()
    }
    const pump = () => {
      let blocked = false
      for (const job of [...pending]) {
        const failed = job.fixtures.find((fixture) => fixture.failure)
        if (failed) {
          pending.splice(pending.indexOf(job), 1)
          finish(schedule.notRun(job, failed))
          release(job)
          continue
        }
        const unready = job.fixtures.filter((fixture) => !fixture.ready)
        if (unready.length > 0) {
          // the first such file due starts its servers; until they are up the files after it may go first
          if (!blocked) for (const fixture of unready) fixture.start()
          continue
        }
        if (job.exclusive.some((resource) => held().has(resource))) continue
        if (blocked || (used > 0 && used + job.weight > schedule.capacity)) {
          blocked = true
          continue
        }
        pending.splice(pending.indexOf(job), 1)
        running.add(job)
        used += job.weight
        void schedule.run(job).then((result) => {
          running.delete(job)
          used -= job.weight
          finish(result)
          release(job)
          pump()
        })
      }
      if (pending.length === 0 && running.size === 0) resolveAll(results)
    }
    for (const fixture of new Set(jobs.flatMap((job) => job.fixtures))) void fixture.settled.then(pump)
    pump()
  })
}
