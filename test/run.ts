// `npm test`: runs every *.test.ts file (tap test files) in parallel processes and prints one line per file,
// the whole output of a file that failed, and tap's closing summary line for the whole run.
//
// In two stages. In the checkout: the compiled build the tests start services from is made current (with its
// type check, as `npm run build` makes it), then the test tree (test/test-tree.ts: a copy of the checkout in
// which every TypeScript file has a JavaScript sibling) is prepared, and this runner goes on from the tree's
// copy of itself. There: the pages' scripts are built, and each test file runs as plain `node <file>.js`, as
// many at once as the machine's cores allow (test/runner/schedule.ts), with the servers several files share
// (the development chain, Chromium) started once for them (test/runner/shared-fixture.ts).
//
// Why not tap's own runner: it loads its coverage tracker (@tapjs/processinfo, a module loader in a worker
// thread that records every file loaded) into every test process and, through NODE_OPTIONS, into every process
// a test spawns, even with coverage disabled. With TypeScript's loader (tsx) as well, a test process spent about
// a second of CPU before its first assertion (docs/testing.md). The files are tap's all the same: each prints TAP
// and tap's summary, and runs alone with `node --import tsx <file>`.
//
// Usage: npm test [-- [--cores N] [--timeout S] [--cpu] [path ...]]   paths: test files or folders (all by default)
import { spawn } from 'node:child_process'
import { mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseCommandLine } from '../kit/command-line.ts'
import { compileContracts } from '../deploy/devnet/compile.ts'
import { build, isBuildCurrent } from '../scripts/build.ts'
import { buildBrowserAssets } from '../scripts/build-browser-assets.ts'
import { startSharedDevnet, stopSharedDevnet } from './shared-devnet/lifecycle.ts'
import { launchSharedChromium, SHARED_BROWSER_ENV } from './support/browser.ts'
import { runScheduled, type TestJob } from './runner/schedule.ts'
import { firstLine, type Fixture, SharedFixture } from './runner/shared-fixture.ts'
import { prepareTestTree } from './test-tree.ts'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
/** set in the second stage: this runner is the test tree's copy */
const IN_TEST_TREE = process.env.TEST_TREE_OF !== undefined
/** folders never searched for test files */
const SKIPPED = new Set(['node_modules', 'dist', '.tap', '.git', 'out', 'cluster-run'])
/**
 * What makes a file heavy besides a shared server: a chain of its own, the embedded start (two chains and a
 * service), or a declared CPU-bound workload (a comment naming the test weight, as in the type check's file).
 */
const HEAVY_MARKS = ['startDevnet(', 'NPM_START_ENTRY', 'test weight: heavy']
/**
 * Files that write or read `npm start`'s deployment file at its fixed path in the tree (deploy/devnet/out/): the
 * embedded starts, and the onboarding demo's test of a service it cannot ask, which must not find another file's
 * chains answering there.
 */
const EMBEDDED_DEPLOYMENT_USERS = ['NPM_START_ENTRY', "'scripts/demo-onboard.ts'"]
/** how long each file took last time, to start the longest first (in the checkout's gitignored .tap folder) */
const DURATIONS_FILE = join(process.env.TEST_TREE_OF ?? ROOT, '.tap', 'test-durations.json')
/** the same, as recorded in the repository: the order of a fresh clone's first run */
const RECORDED_DURATIONS_FILE = join(ROOT, 'test', 'file-durations.json')

const command = parseCommandLine({
  usage: 'npm test [-- [options] [path ...]]',
  summary: 'Runs the test files (every *.test.ts, or those under the paths given) after building what they start.',
  maxPositionals: Number.POSITIVE_INFINITY,
  options: {
    cores: {
      type: 'string',
      default: String(availableParallelism()),
      value: 'N',
      description: "the cores' worth of test files run at once (a heavy file counts 1, another 1/2); the machine's cores by default",
    },
    // a hang detector: the longest file, the embedded start on two Node lines, took up to 245 s on an overloaded
    // two-core machine and 113 s on an idle one
    timeout: { type: 'string', default: '750', value: 'S', description: "each file's deadline in seconds" },
    cpu: { type: 'boolean', default: false, description: 'also report the CPU seconds each file used, its child processes included' },
  },
})
const cores = command.number('cores', { min: 1, integer: true })
const timeoutMs = command.number('timeout', { min: 1 }) * 1000
const reportCpu = command.values.cpu
const positionals = command.positionals

interface FileResult {
  file: string
  ok: boolean
  /** the shared server it needed and that did not start (it was not run) */
  notRunFor?: string
  pass: number
  fail: number
  ms: number
  /** with --cpu: user + system seconds of the file's process and every process it waited for */
  cpuSeconds?: number
  output: string
}

const startedAt = performance.now()
if (!IN_TEST_TREE) {
  if (!isBuildCurrent()) {
    console.log('# building dist/ (the compiled service the tests start), with its type check')
    await build()
  }
  // the development chains' contracts, compiled once here (cached in deploy/devnet/out/, which the tree copies)
  // rather than by each chain and file of the run that finds no compilation yet: several at once, 5 CPU-s each
  await compileContracts()
  const tree = await prepareTestTree(ROOT)
  console.log(`# test tree ready in ${((performance.now() - startedAt) / 1000).toFixed(1)} s`)
  const stage = spawn(process.execPath, [join(tree, 'test', 'run.js'), ...process.argv.slice(2)], {
    cwd: tree,
    stdio: 'inherit',
    env: { ...process.env, TEST_TREE_OF: ROOT },
  })
  stage.once('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)))
} else {
  const files = orderedByLastDuration(positionals.length > 0 ? positionals.flatMap((path) => testFiles(resolve(path))) : testFiles(ROOT))
  buildBrowserAssets()
  // the chain's fixture holds `true` once up: its files find it through its record (test/support/shared-devnet.ts)
  const devnet = new SharedFixture('the shared development chain', () => startSharedDevnet(process.pid).then(() => true), stopSharedDevnet)
  const chromium = new SharedFixture('the shared Chromium', launchSharedChromium, (server) => server.close())
  const jobs = files.map((file) => jobFor(file, readFileSync(join(ROOT, file), 'utf8'), { devnet, chromium }))
  // the chain takes seconds to start, and the files that need it are among the longest: it starts at once
  if (jobs.some((job) => job.fixtures.includes(devnet))) devnet.start()
  let results: FileResult[]
  let finished = 0
  try {
    results = await runScheduled(jobs, {
      capacity: cores,
      run: (job) => runFile(job.file, job.fixtures.includes(chromium) ? { [SHARED_BROWSER_ENV]: chromium.get().wsEndpoint() } : {}),
      notRun: (job, fixture) => ({ file: job.file, ok: false, notRunFor: fixture.name, pass: 0, fail: 0, ms: 0, output: '' }),
      onResult: (result) => printResult(result, ++finished, jobs.length),
    })
  } finally {
    await Promise.all([devnet.stop(), chromium.stop()])
  }
  report(results, [devnet, chromium])
}

/** Calls in a file's source that make it heavy, and what it then needs. */
function jobFor(file: string, source: string, shared: { devnet: Fixture; chromium: Fixture }): TestJob {
  const fixtures = [
    ...(source.includes('devnetForFile(') ? [shared.devnet] : []),
    ...(source.includes('launchChromium(') ? [shared.chromium] : []),
  ]
  const heavy = fixtures.length > 0 || HEAVY_MARKS.some((mark) => source.includes(mark))
  const exclusive = EMBEDDED_DEPLOYMENT_USERS.some((mark) => source.includes(mark)) ? ['the embedded deployment file'] : []
  return { file, weight: heavy ? 1 : 0.5, fixtures, exclusive }
}

function testFiles(path: string): string[] {
  if (!statSync(path).isDirectory()) return [relative(ROOT, path)]
  return readdirSync(path, { withFileTypes: true }).flatMap((entry) => {
    if (entry.isDirectory()) return SKIPPED.has(entry.name) ? [] : testFiles(join(path, entry.name))
    return entry.name.endsWith('.test.ts') ? [relative(ROOT, join(path, entry.name))] : []
  })
}

/** Longest first (as measured last time; files not measured yet first of all), so no long file starts last. */
function orderedByLastDuration(found: string[]): string[] {
  const last = readDurations()
  return [...found].sort((a, b) => (last[b] ?? Infinity) - (last[a] ?? Infinity) || a.localeCompare(b))
}

function readDurations(file = DURATIONS_FILE): Record<string, number> {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Record<string, number>
  } catch {
    return file === DURATIONS_FILE ? readDurations(RECORDED_DURATIONS_FILE) : {}
  }
}

function runFile(file: string, env: Record<string, string>): Promise<FileResult> {
  const started = performance.now()
  // its own process group, so that a file past its deadline is stopped with everything it started; with --cpu
  // through a shell whose `times` reports the CPU of the processes it waited for, on a descriptor of its own
  const node = [process.execPath, file.replace(/\.ts$/, '.js')]
  const [command, args] = reportCpu ? ['sh', ['-c', '"$@"; status=$?; times >&3; exit $status', 'sh', ...node]] : [node[0]!, node.slice(1)]
  const child = spawn(command, args, {
    cwd: ROOT,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
    env: { ...process.env, ...env, TAP_TIMEOUT: String(timeoutMs / 1000) },
  })
  let times = ''
  child.stdio[3]!.on('data', (chunk: Buffer) => (times += chunk.toString()))
  const chunks: Buffer[] = []
  child.stdout!.on('data', (chunk: Buffer) => chunks.push(chunk))
  child.stderr!.on('data', (chunk: Buffer) => chunks.push(chunk))
  let timedOut = false
  // tap ends a file at TAP_TIMEOUT itself; this is the backstop for a file that cannot
  const deadline = setTimeout(() => {
    timedOut = true
    killGroup(child.pid!)
  }, timeoutMs + 30_000)
  return new Promise((resolveResult) => {
    child.once('close', (code, signal) => {
      clearTimeout(deadline)
      const output = Buffer.concat(chunks).toString()
      const counts = closingCounts(output)
      const failed = code !== 0 || timedOut || counts === undefined || counts.fail > 0
      const why = timedOut ? `\n# killed after ${timeoutMs / 1000 + 30} s` : signal ? `\n# ended by ${signal}` : ''
      resolveResult({
        file,
        ok: !failed,
        pass: counts?.pass ?? 0,
        // a file that failed without a failing assertion (it crashed, or never finished) counts as one failure
        fail: failed ? Math.max(1, counts?.fail ?? 0) : 0,
        ms: performance.now() - started,
        ...(reportCpu && { cpuSeconds: childrenCpuSeconds(times) }),
        output: output + why,
      })
    })
  })
}

/** The children's line of the shell's `times` (`0m1.250s 0m0.310s`): user + system seconds. */
function childrenCpuSeconds(times: string): number {
  const line = times.trim().split('\n').at(-1) ?? ''
  return [...line.matchAll(/(\d+)m([\d.]+)s/g)].reduce((sum, [, minutes, seconds]) => sum + Number(minutes) * 60 + Number(seconds), 0)
}

function killGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL')
  } catch {
    // already gone
  }
}

/** tap's closing line of a file: `# { total: 12, pass: 11, fail: 1 }` */
function closingCounts(output: string): { pass: number; fail: number } | undefined {
  const summary = output.match(/^# \{ total: \d+.*\}$/gm)?.at(-1)
  if (!summary) return undefined
  const count = (name: string) => Number(summary.match(new RegExp(`${name}: (\\d+)`))?.[1] ?? 0)
  return { pass: count('pass'), fail: count('fail') }
}

function printResult(result: FileResult, index: number, total: number): void {
  if (result.notRunFor) return console.log(`not ok ${index}/${total} - ${result.file} # not run: ${result.notRunFor} did not start`)
  const cpu = result.cpuSeconds === undefined ? '' : `, ${result.cpuSeconds.toFixed(1)} s CPU`
  const line = `${result.ok ? 'ok' : 'not ok'} ${index}/${total} - ${result.file} # ${(result.ms / 1000).toFixed(1)} s${cpu}, ${result.pass} passed`
  if (result.ok) return console.log(line)
  console.log(`${result.output.trimEnd()}\n${line}, ${result.fail} failed`)
}

/** The run's summary; a shared server that did not start counts one failure, however many files needed it. */
function report(all: FileResult[], fixtures: Fixture[]): void {
  const ran = all.filter((result) => !result.notRunFor)
  mkdirSync(join(ROOT, '.tap'), { recursive: true })
  writeFileSync(
    DURATIONS_FILE,
    JSON.stringify({ ...readDurations(), ...Object.fromEntries(ran.map((result) => [result.file, Math.round(result.ms)])) }),
  )
  const failedFixtures = fixtures.filter((fixture) => fixture.failure)
  for (const fixture of failedFixtures) {
    const files = all.filter((result) => result.notRunFor === fixture.name).map((result) => result.file)
    console.log(`# ${fixture.name} did not start twice: ${firstLine(fixture.failure!)}\n#   not run for want of it: ${files.join(', ')}`)
  }
  const pass = all.reduce((sum, result) => sum + result.pass, 0)
  const fail = all.reduce((sum, result) => sum + result.fail, 0) + failedFixtures.length
  const failedFiles = ran.filter((result) => !result.ok).map((result) => result.file)
  if (failedFiles.length > 0) console.log(`# failed: ${failedFiles.join(', ')}`)
  const cpu = reportCpu ? `, ${all.reduce((sum, result) => sum + (result.cpuSeconds ?? 0), 0).toFixed(0)} s CPU` : ''
  console.log(`# ${all.length} files in ${((performance.now() - startedAt) / 1000).toFixed(1)} s${cpu}`)
  // tap's own closing line, which .ci/run reads
  console.log(`# { total: ${pass + fail}, pass: ${pass}${fail > 0 ? `, fail: ${fail}` : ''} }`)
  process.exitCode = fail > 0 ? 1 : 0
}
