// Start-up as a newcomer meets it: the time from a shell's spawn of `npm start` (on a fresh PORT) to the first 200
// from GET /v1/prices carrying all 83 rows, over several runs, beside the same moment measured from the start of
// the service's own process (what npm's start adds is the difference), and then what each process of the group holds
// (RSS) once the start has settled: the main process, and with onboarding on its development chains (anvil
// and the alto bundler per chain). Target: the first price within 1 s.
// With --compare <commit>, that commit's tree starts the same way, the trees alternating run by run (each started
// once first, unmeasured, to build its dist/), and the medians are compared.
// Usage: npm run bench:start [-- --runs 5] [--settle-seconds 10] [--onboarding off] [--cold] [--compare COMMIT]
//   --onboarding off  runs with ONBOARDING_ENABLED=false (and checks that no chain process starts)
//   --cold            disables tsx's compile cache, as on a fresh clone's first start
import { spawn, type ChildProcess } from 'node:child_process'
import { loadavg } from 'node:os'
import { fileURLToPath } from 'node:url'
import { parseCommandLine, progressReporter } from '../kit/command-line.ts'
import { PAIRS } from '../schemas/pairs.ts'
import { freePort } from '../test/support/servers.ts'
import { waitFor, withDeadline } from '../test/support/wait.ts'
import { processAgeMs, processTree, type ProcessInfo } from './process-tree.ts'
import { median, printTable, writeResult } from './report.ts'
import { treeAtCommit } from './tree-at-commit.ts'

const command = parseCommandLine({
  usage: 'npm run bench:start -- [options]',
  summary:
    'Start-up: the time from a shell spawning `npm start` to the first 200 from GET /v1/prices with every pair, per run\n' +
    "and the median, beside the same from the service process's start; then the RSS of each process of the group once\n" +
    'the start has settled.',
  options: {
    runs: { type: 'string', default: '5', value: 'N', description: 'starts measured' },
    'settle-seconds': { type: 'string', default: '10', value: 'S', description: 'seconds after the chains are up before the RSS is read' },
    onboarding: {
      type: 'string',
      default: 'on',
      value: 'on|off',
      description: 'off: ONBOARDING_ENABLED=false (and no chain process may start)',
    },
    cold: { type: 'boolean', default: false, description: "tsx's compile cache off, as on a fresh clone's first start" },
    compare: { type: 'string', value: 'COMMIT', description: "an earlier commit's tree to start beside this one, alternating" },
  },
})
const args = command.values
const runs = command.number('runs', { min: 1, integer: true })
const settleMs = command.number('settle-seconds', { min: 0 }) * 1000
const onboarding = command.choice('onboarding', ['on', 'off']) === 'on'
const progress = progressReporter()
const ROOT = fileURLToPath(new URL('..', import.meta.url))
/** what the embedded start logs once the development chains are up (deploy/devnet/embedded.ts) */
const CHAINS_UP = 'development-chain deployment written'
const START_DEADLINE_MS = 60_000

/** What a process of the group is, by its command line. */
function part(info: ProcessInfo): string {
  if (/scripts\/start\.mjs/.test(info.command)) return 'main'
  if (/\banvil\b/.test(info.command)) return 'anvil'
  if (/alto\.js/.test(info.command)) return 'alto'
  if (/\bnpm\b/.test(info.command)) return 'npm'
  return info.command.split(' ')[0]!
}

async function firstFullSnapshot(port: number): Promise<void> {
  await waitFor(
    async () => {
      const response = await fetch(`http://127.0.0.1:${port}/v1/prices`).catch(() => undefined)
      if (response?.status !== 200) return false
      const body = (await response.json()) as { prices: unknown[] }
      return body.prices.length === PAIRS.length
    },
    { timeoutMs: START_DEADLINE_MS, intervalMs: 5, what: 'a snapshot of every pair' },
  )
}

function logLine(child: ChildProcess, msg: string): Promise<void> {
  return new Promise((resolve) => {
    let buffered = ''
    child.stdout!.on('data', (chunk: Buffer) => {
      buffered += chunk.toString()
      if (buffered.includes(`"msg":"${msg}"`)) resolve()
      buffered = buffered.slice(buffered.lastIndexOf('\n') + 1)
    })
  })
}

/** A tree `npm start` runs in. */
interface Tree {
  name: string
  dir: string
}

async function oneRun(run: number, tree: Tree) {
  const port = await freePort()
  const env = {
    ...process.env,
    PORT: String(port),
    ...(!onboarding && { ONBOARDING_ENABLED: 'false' }),
    ...(args.cold && { TSX_DISABLE_CACHE: '1' }),
  }
  const load = loadavg()[0]!
  progress(`run ${run} of ${runs}: npm start in ${tree.name}`)
  const startedAt = performance.now()
  // typed in a shell, as a user starts it; its own process group, so that whatever is left can be ended at once
  const npm = spawn('npm start', { shell: true, cwd: tree.dir, env, detached: true, stdio: ['ignore', 'pipe', 'inherit'] })
  const exited = new Promise<void>((resolve) => npm.once('exit', () => resolve()))
  const chainsUp = logLine(npm, CHAINS_UP)
  try {
    await firstFullSnapshot(port)
    const firstPriceMs = performance.now() - startedAt
    const main = processTree(npm.pid!).find((info) => part(info) === 'main')
    const inProcessMs = main ? processAgeMs(main.pid) : Number.NaN
    progress(`run ${run}: first price after ${Math.round(firstPriceMs)} ms; ${onboarding ? 'waiting for the chains, then ' : ''}settling`)
    if (onboarding) await withDeadline(chainsUp, START_DEADLINE_MS, 'the development chains')
    const chainsMs = onboarding ? performance.now() - startedAt : undefined
    await new Promise((resolve) => setTimeout(resolve, settleMs))
    const processes = processTree(npm.pid!)
    const rss = (name: string) => processes.filter((info) => part(info) === name).reduce((sum, info) => sum + info.rssMb, 0)
    const counts = (name: string) => processes.filter((info) => part(info) === name).length
    const row = {
      run,
      tree: tree.name,
      'first price ms': Math.round(firstPriceMs),
      'from the service process ms': Math.round(inProcessMs),
      'load avg (1 min)': load,
      'chains up ms': chainsMs === undefined ? '-' : Math.round(chainsMs),
      'main MB': Math.round(rss('main')),
      'anvil MB': `${Math.round(rss('anvil'))} (${counts('anvil')})`,
      'alto MB': `${Math.round(rss('alto'))} (${counts('alto')})`,
      'npm MB': Math.round(rss('npm')),
      'group MB': Math.round(processes.reduce((sum, info) => sum + info.rssMb, 0)),
    }
    return { row, firstPriceMs, inProcessMs, processes }
  } finally {
    const main = processTree(npm.pid!).find((info) => part(info) === 'main')
    if (main) process.kill(main.pid, 'SIGTERM')
    await withDeadline(exited, 20_000, 'npm start to stop').catch(() => process.kill(-npm.pid!, 'SIGKILL'))
  }
}

const trees: Tree[] = [{ name: 'this tree', dir: ROOT }]
const compared = args.compare ? treeAtCommit(args.compare) : undefined
if (compared) trees.push({ name: `commit ${compared.commit.slice(0, 8)}`, dir: compared.dir })
try {
  if (compared) {
    // each tree's first start builds its dist/ and fills V8's compile cache: not measured
    for (const tree of trees) await oneRun(0, tree)
  }
  const results: ({ tree: string } & Awaited<ReturnType<typeof oneRun>>)[] = []
  for (let run = 1; run <= runs; run++) {
    // the trees alternate, and so does which of them goes first
    for (const tree of run % 2 === 1 ? trees : [...trees].reverse()) results.push({ tree: tree.name, ...(await oneRun(run, tree)) })
  }
  console.log(`npm start, ${onboarding ? 'onboarding on' : 'ONBOARDING_ENABLED=false'}${args.cold ? ', tsx cache off' : ''}`)
  printTable(results.map((result) => result.row))
  const medians = trees.map((tree) => {
    const ofTree = results.filter((result) => result.tree === tree.name)
    const medianMs = median(ofTree.map((result) => result.firstPriceMs))
    const inProcessMedianMs = median(ofTree.map((result) => result.inProcessMs))
    console.log(`${tree.name}: median time to the first full snapshot: ${Math.round(medianMs)} ms (target < 1,000 ms)`)
    console.log(
      `${tree.name}: of which before the service process started (the shell, npm): ${Math.round(medianMs - inProcessMedianMs)} ms`,
    )
    return { tree: tree.name, medianMs, inProcessMedianMs }
  })
  if (compared) {
    const [own, other] = medians as [(typeof medians)[0], (typeof medians)[0]]
    console.log(`this tree against ${other.tree}: ${(own.medianMs / other.medianMs).toFixed(3)} of its time to the first price`)
  }
  console.log('processes of the last run:')
  printTable(results.at(-1)!.processes.map((info) => ({ part: part(info), pid: info.pid, 'RSS MB': Math.round(info.rssMb) })))
  const file = writeResult('start-up', {
    onboarding,
    cold: args.cold,
    compared: compared?.commit,
    medianMs: medians[0]!.medianMs,
    inProcessMedianMs: medians[0]!.inProcessMedianMs,
    medians,
    runs: results.map((result) => result.row),
  })
  console.log(`written to ${file}`)
} finally {
  compared?.remove()
}
