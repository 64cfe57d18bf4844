// The test runner's schedule (schedule.ts) and shared servers (shared-fixture.ts), with jobs that are promises
// this file settles: the files running at once never weigh more than the cores, in their order; a shared server
// starts once, is tried once more when its start fails, and a second failure leaves its files not run.
import t from 'tap'
import { runScheduled, type TestJob } from './schedule.ts'
import { SharedFixture } from './shared-fixture.ts'

interface Deferred {
  resolve(): void
  promise: Promise<void>
}
const deferred = (): Deferred => {
  let resolve!: () => void
  const promise = new Promise<void>((done) => (resolve = done))
  return { resolve, promise }
}

/** Runs the jobs; each ends when the test ends it, and the schedule's state is sampled at each start. */
function harness(jobs: TestJob[], capacity: number) {
  const running = new Map<string, Deferred>()
  const started: string[] = []
  const weightsAtStart: number[] = []
  const notRun: string[] = []
  const weightOf = (file: string) => jobs.find((job) => job.file === file)!.weight
  let onStart = () => {}
  const done = runScheduled(jobs, {
    capacity,
    run: async (job) => {
      const end = deferred()
      running.set(job.file, end)
      started.push(job.file)
      weightsAtStart.push([...running.keys()].reduce((sum, file) => sum + weightOf(file), 0))
      onStart()
      await end.promise
      running.delete(job.file)
      return job.file
    },
    notRun: (job) => {
      notRun.push(job.file)
      return job.file
    },
    onResult: () => {},
  })
  const whenStarted = (count: number) =>
    new Promise<void>((resolve) => {
      onStart = () => started.length >= count && resolve()
      onStart()
    })
  return { running, started, weightsAtStart, notRun, done, whenStarted, end: (file: string) => running.get(file)!.resolve() }
}

const job = (file: string, weight: number, fixtures: TestJob['fixtures'] = [], exclusive: string[] = []): TestJob => ({
  file,
  weight,
  fixtures,
  exclusive,
})

t.test('the files running at once never weigh more than the capacity, and start in their order', async (t) => {
  const run = harness([job('a', 1), job('b', 1), job('c', 0.5), job('d', 0.5), job('e', 0.5)], 2)
  await run.whenStarted(2)
  t.same(run.started, ['a', 'b'], 'two heavy files fill two cores')
  run.end('a')
  await run.whenStarted(4)
  t.same(run.started, ['a', 'b', 'c', 'd'], 'two light files take the core one heavy file left')
  run.end('b')
  await run.whenStarted(5)
  for (const file of ['c', 'd', 'e']) run.end(file)
  t.same(await run.done, ['a', 'b', 'c', 'd', 'e'])
  t.ok(
    run.weightsAtStart.every((weight) => weight <= 2),
    `weights at each start: ${run.weightsAtStart.join(', ')}`,
  )
})

t.test('a lighter file does not jump a heavier one that does not fit yet', async (t) => {
  const run = harness([job('light', 0.5), job('heavy', 1), job('later light', 0.5)], 1)
  await run.whenStarted(1)
  t.same(run.started, ['light'])
  run.end('light')
  await run.whenStarted(2)
  t.same(run.started, ['light', 'heavy'], 'the heavy file goes before the light one behind it')
  run.end('heavy')
  await run.whenStarted(3)
  run.end('later light')
  await run.done
})

t.test('a shared server starts once for its files, before the first of them, and stops after the last', async (t) => {
  const starts: string[] = []
  let stops = 0
  const stopped = deferred()
  const server = new SharedFixture(
    'the server',
    async () => {
      starts.push('start')
      return 'endpoint'
    },
    async () => {
      stops++
      stopped.resolve()
    },
  )
  const run = harness([job('plain', 0.5), job('user 1', 0.5, [server]), job('user 2', 0.5, [server])], 2)
  await run.whenStarted(3)
  t.same(starts, ['start'], 'started once')
  t.equal(server.get(), 'endpoint')
  run.end('user 1')
  run.end('user 2')
  await stopped.promise
  t.ok(run.running.has('plain'), 'stopped once its last file ended, while another file still runs')
  run.end('plain')
  await run.done
  t.equal(stops, 1)
})

t.test('a failed start is tried once more; a second failure leaves its files not run', async (t) => {
  let attempts = 0
  const flaky = new SharedFixture(
    'the flaky server',
    async () => {
      if (++attempts === 1) throw new Error('first start failed')
      return 'up'
    },
    async () => {},
  )
  const first = harness([job('user', 1, [flaky])], 2)
  await first.whenStarted(1)
  t.equal(attempts, 2, 'the second start succeeded')
  first.end('user')
  await first.done

  const broken = new SharedFixture(
    'the broken server',
    async () => {
      throw new Error('no such executable')
    },
    async () => {},
  )
  const second = harness([job('needs it', 1, [broken]), job('needs it too', 1, [broken]), job('does not', 0.5)], 2)
  await second.whenStarted(1)
  second.end('does not')
  await second.done
  t.same(second.notRun, ['needs it', 'needs it too'], 'not run')
  t.equal(broken.failure?.message, 'no such executable', "the fixture's failure, once, with its cause")
})

t.test('two files that use the same exclusive resource never run at once; the files after them go meanwhile', async (t) => {
  const run = harness([job('writer', 1, [], ['the file']), job('reader', 0.5, [], ['the file']), job('other', 0.5)], 2)
  await run.whenStarted(2)
  t.same(run.started, ['writer', 'other'], 'the reader waits, the next file goes')
  run.end('other')
  run.end('writer')
  await run.whenStarted(3)
  t.same(run.started, ['writer', 'other', 'reader'])
  run.end('reader')
  await run.done
})
