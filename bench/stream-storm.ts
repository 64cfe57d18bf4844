// The reconnect storm: two edges on one bus, most connections on the first; the first is killed (SIGKILL,
// as a crashed or evicted pod) and every client of it reconnects to the other. Measured: the time until
// every client is current again, the bytes the clients received meanwhile, refused upgrades, the surviving
// edge's peak RSS, and the p99 of observers that stayed on the surviving edge, quiet and during the storm.
// Each recovery is a storm of its own: `snapshot` (clients reconnect as they did before cursors, and are
// current again with their snapshot) and `resume` (clients ask for cursors and reconnect with ?from=<the last
// one>, current again with their recovered resume, whose missed ticks follow in the same send; a seq jump
// across it is a tick lost). Each in the modes asked for: `at-once` (clients reconnect at once, no admission
// rate) and `paced` (the edge's default admission rate, clients with full-jitter backoff honouring
// Retry-After). Ticks at the real feed's rhythm (every pair per 400 ms slot). After the storm the observers are
// measured once more (settled): the survivor then holds every client.
// `--formats full,compact` runs each recovery with full rows and with compact frames (?format=compact; the rows
// are then stamped in a field of the row for every format, so all carry the same rows), and `--replays all,latest`
// each resume with every tick replayed and with each pair's latest only (?replay=latest, whose gap counts the
// ticks folded: those jumps are not counted as lost).
// Where the machine has the cores, the survivor can be sized for the storm: `--survivor-workers N` (EDGE_WORKERS) on
// `--survivor-cpus`, the killed edge on `--doomed-cpus`, the clients on `--client-cpus` (taskset lists).
// Usage: npm run bench:stream-storm [-- --clients 15000 --first-share 90 --observers 200 --quiet 10 --modes paced
//   --recoveries snapshot,resume --formats full --replays all --deadline-seconds 120 --cpu-prof-dir DIR --survivor-workers 1 --doomed-cpus 0 --survivor-cpus 0 --client-cpus 1]
import { connect } from '@nats-io/transport-node'
import { setTimeout as sleep } from 'node:timers/promises'
import { parseCommandLine, progressReporter } from '../kit/command-line.ts'
import { loadAverage } from '../loadtest/cpu-meter.ts'
import { buildLoadClient, LoadClient, StampedTickPublisher, type ClientReport } from '../loadtest/native-stream-client.ts'
import { clientGroups, loopbackSources } from '../loadtest/native-stream-load.ts'
import { isCpuList } from '../loadtest/pinning.ts'
import { totalRssMb } from '../loadtest/server-processes.ts'
import { freePort, startNats } from '../test/support/servers.ts'
import { waitFor } from '../test/support/wait.ts'
import { reportRows } from './report.ts'
import { startStreamService } from './stream-servers.ts'

const MODES = ['at-once', 'paced'] as const
const RECOVERIES = ['snapshot', 'resume'] as const
const FORMATS = ['full', 'compact'] as const
const REPLAYS = ['all', 'latest'] as const
const command = parseCommandLine({
  usage: 'npm run bench:stream-storm -- [options]',
  summary:
    'The reconnect storm: two edges on one bus, most connections on the first, which is killed (SIGKILL); its clients\n' +
    'reconnect to the other, with a snapshot or resuming after their cursor. Measures the time until every client is\n' +
    "current again, the bytes they received meanwhile, refused upgrades, the survivor's peak RSS and the p99 of\n" +
    'observers on the survivor. JSON rows on stdout, progress on stderr.',
  options: {
    clients: { type: 'string', default: '15000', value: 'N', description: 'storm clients' },
    'first-share': { type: 'string', default: '90', value: 'PCT', description: 'the share of them on the edge that is killed' },
    observers: { type: 'string', default: '200', value: 'N', description: 'observers on the surviving edge' },
    quiet: { type: 'string', default: '10', value: 'S', description: "seconds of each observers' window (quiet, settled)" },
    'deadline-seconds': {
      type: 'string',
      default: '120',
      value: 'S',
      description: 'how long to wait for every client to hold a snapshot again',
    },
    modes: {
      type: 'string',
      default: 'paced',
      value: 'LIST',
      description: 'at-once: reconnect at once; paced: admission rate and backoff (at-once,paced: both)',
    },
    recoveries: {
      type: 'string',
      default: RECOVERIES.join(','),
      value: 'LIST',
      description: 'snapshot: reconnect for a snapshot; resume: reconnect with ?from=<the last cursor>',
    },
    formats: { type: 'string', default: 'full', value: 'LIST', description: 'full: rows; compact: compact frames (full,compact: both)' },
    replays: {
      type: 'string',
      default: 'all',
      value: 'LIST',
      description: "what a resume replays: all, every tick; latest, each pair's latest (all,latest: both)",
    },
    'cpu-prof-dir': {
      type: 'string',
      value: 'DIR',
      description: 'write a CPU profile of the surviving edge per run here (node --cpu-prof)',
    },
    'survivor-workers': { type: 'string', default: '1', value: 'N', description: "the surviving edge's workers (EDGE_WORKERS)" },
    'doomed-cpus': { type: 'string', default: '0', value: 'LIST', description: 'CPUs of the edge that is killed (taskset -c)' },
    'survivor-cpus': { type: 'string', default: '0', value: 'LIST', description: 'CPUs of the surviving edge' },
    'client-cpus': { type: 'string', default: '1', value: 'LIST', description: 'CPUs of the load clients' },
  },
})
const args = command.values
const clients = command.number('clients', { min: 1, integer: true })
command.number('first-share', { min: 0, max: 100 })
for (const option of ['observers', 'survivor-workers'] as const) command.number(option, { min: 1, integer: true })
for (const option of ['quiet', 'deadline-seconds'] as const) command.number(option, { min: 0 })
const modes = args.modes.split(',').map((mode) => command.choice('modes', MODES, mode))
const recoveries = args.recoveries.split(',').map((recovery) => command.choice('recoveries', RECOVERIES, recovery))
const formats = args.formats.split(',').map((format) => command.choice('formats', FORMATS, format))
const replays = args.replays.split(',').map((replay) => command.choice('replays', REPLAYS, replay))
for (const option of ['doomed-cpus', 'survivor-cpus', 'client-cpus'] as const) {
  if (!isCpuList(args[option])) command.refuse(`--${option} is a CPU list such as 1, 0,1 or 0-3, not "${args[option]}"`)
}
const progress = progressReporter()
const SLOT_MS = 400
const clientBinary = buildLoadClient()
const nats = await startNats()
const nc = await connect({ servers: nats.url, name: 'stream-storm-publisher' })
type Counted =
  | 'withSnapshot'
  | 'refused'
  | 'refused503'
  | 'failed'
  | 'reconnects'
  | 'frameBytes'
  | 'resumesRecovered'
  | 'resumesRefused'
  | 'seqGaps'
  | 'gaps'
const sum = (reports: ClientReport[], key: Counted) => reports.reduce((total, report) => total + report[key], 0)

interface Storm {
  mode: (typeof MODES)[number]
  recovery: (typeof RECOVERIES)[number]
  format: (typeof FORMATS)[number]
  replay: (typeof REPLAYS)[number]
}

async function storm({ mode, recovery, format, replay }: Storm) {
  const folded = recovery === 'resume' && replay === 'latest'
  const run = `${recovery}${folded ? ' latest' : ''} ${format} ${mode}`
  progress(`${run}: starting the two edges and ${clients} clients`)
  const [first, second] = [await freePort(), await freePort()]
  const admission = mode === 'at-once' ? { STREAM_UPGRADES_PER_SECOND: '1000000', STREAM_UPGRADE_BURST: '1000000' } : {}
  // the default admission rate is what the paced run measures: the servers module lifts it, so it is set back here
  const paced = { STREAM_UPGRADES_PER_SECOND: '1000', STREAM_UPGRADE_BURST: '1000' }
  const env = { ...paced, ...admission }
  const doomed = await startStreamService({ natsUrl: nats.url, workers: 1, port: first, cpus: args['doomed-cpus'], env })
  const survivor = await startStreamService({
    natsUrl: nats.url,
    workers: Number(args['survivor-workers']),
    port: second,
    cpus: args['survivor-cpus'],
    env,
    namespace: doomed.namespace,
    nodeArgs: args['cpu-prof-dir'] ? ['--cpu-prof', `--cpu-prof-dir=${args['cpu-prof-dir']}`] : [],
  })
  const publisher = new StampedTickPublisher(nc, doomed.namespace, formats.includes('compact') ? 'in-row' : 'trailing')
  await publisher.warm()
  const stopPublishing = new AbortController()
  const publishing = publisher.runSlots(SLOT_MS, Number.POSITIVE_INFINITY, stopPublishing.signal)
  const stormClients = clientGroups(clients).map(
    (count, group) =>
      new LoadClient({
        binary: clientBinary,
        ports: [first, second],
        firstPortShare: Number(args['first-share']),
        count,
        pairs: 'rand:8',
        allPairsShare: 10,
        sources: loopbackSources(clients),
        reconnect: mode === 'at-once' ? 'at-once' : 'backoff',
        inflight: mode === 'at-once' ? count : 1000,
        resume: recovery === 'resume',
        format,
        replay,
        seed: group + 1,
        cpus: args['client-cpus'],
      }),
  )
  const observers = new LoadClient({
    binary: clientBinary,
    ports: [second],
    count: Number(args.observers),
    pairs: 'rand:8',
    seed: 99,
    cpus: args['client-cpus'],
  })
  try {
    // the first connects may themselves be paced by the admission rate: every client holding a snapshot is the start
    const everyoneHolds = async () => {
      const holding = sum(await Promise.all(stormClients.map((client) => client.report())), 'withSnapshot')
      progress.every(`${run}: ${holding} of ${clients} clients hold their first snapshot`)
      return holding === clients
    }
    await Promise.all([
      observers.connected(120_000),
      waitFor(everyoneHolds, { what: 'the first snapshots', timeoutMs: 120_000, intervalMs: 200 }),
    ])
    const reconnectsBefore = sum(await Promise.all(stormClients.map((client) => client.report())), 'reconnects')
    const onKilledEdge = Math.round((clients * Number(args['first-share'])) / 100)
    await observers.reset()
    progress(`${run}: quiet window of ${args.quiet} s`)
    await sleep(Number(args.quiet) * 1000) // the quiet window being measured
    const quiet = await observers.report()
    const survivorPids = survivor.pids()
    let peakRssMb = totalRssMb(survivorPids)
    // the clients' clocks start here, just before the kill: the time to every snapshot counts from it
    await Promise.all([...stormClients, observers].map((client) => client.reset()))
    process.kill(doomed.pids()[0]!, 'SIGKILL')
    progress(`${run}: first edge killed; ${onKilledEdge} clients reconnect`)
    const killedAt = performance.now()
    let reports: ClientReport[] = []
    // a run past the deadline is reported with what it reached, not thrown away
    const everyoneBack = await waitFor(
      async () => {
        peakRssMb = Math.max(peakRssMb, totalRssMb(survivorPids))
        reports = await Promise.all(stormClients.map((client) => client.report()))
        progress.every(`${run}: ${sum(reports, 'withSnapshot')} of ${clients} clients are current`)
        // the killed edge's clients have noticed (each reconnects at least once) and all are current again
        return sum(reports, 'reconnects') - reconnectsBefore >= onKilledEdge && sum(reports, 'withSnapshot') === clients
      },
      { what: 'every client current again', timeoutMs: Number(args['deadline-seconds']) * 1000, intervalMs: 100 },
    ).catch(() => false)
    const observed = await observers.report()
    // the same observers once the storm is over: the survivor now holds every client, so this separates what the
    // storm costs from what holding all the connections on one edge costs
    await observers.reset()
    progress(`${run}: settled window of ${args.quiet} s`)
    await sleep(Number(args.quiet) * 1000)
    const settled = await observers.report()
    const row = {
      recovery,
      ...(formats.length > 1 && { format }),
      ...(replays.length > 1 && { replay: folded ? 'latest' : recovery === 'resume' ? 'all' : '' }),
      mode,
      clients,
      'on killed edge': onKilledEdge,
      'all current again s': everyoneBack
        ? Math.max(...reports.map((report) => report.lastSnapshotMs)) / 1000
        : `not within ${args['deadline-seconds']}`,
      current: sum(reports, 'withSnapshot'),
      'watched for s': Math.round(performance.now() - killedAt) / 1000,
      // snapshots, replays and live ticks alike, from the kill until every client was current
      'MB to storm clients': Math.round(sum(reports, 'frameBytes') / 1e4) / 100,
      'resumes recovered': sum(reports, 'resumesRecovered'),
      'resumes refused': sum(reports, 'resumesRefused'),
      // with resume, seq goes on across the move: a jump is a tick it lost; with replay latest, the jumps its gaps
      // announce are ticks folded by request, so only the jumps beyond them count
      'storm clients seq gaps': folded ? sum(reports, 'seqGaps') - sum(reports, 'gaps') : sum(reports, 'seqGaps') + sum(reports, 'gaps'),
      ...(folded && { 'ticks folded': sum(reports, 'gaps') }),
      'refused upgrades': sum(reports, 'refused'),
      '503s': sum(reports, 'refused503'),
      'failed connects': sum(reports, 'failed'),
      'survivor peak RSS MB': peakRssMb,
      'observer quiet p99 ms': quiet.p99ms,
      'observer storm p99 ms': observed.p99ms,
      'p99 ratio': Math.round((observed.p99ms / quiet.p99ms) * 100) / 100,
      'observer settled p99 ms': settled.p99ms,
      'storm / settled p99': Math.round((observed.p99ms / settled.p99ms) * 100) / 100,
      'observer seq gaps': observed.seqGaps + observed.gaps,
      'observer settled seq gaps': settled.seqGaps + settled.gaps,
    }
    console.log(JSON.stringify(row))
    return row
  } finally {
    stopPublishing.abort()
    await publishing
    await Promise.all([...stormClients, observers].map((client) => client.close()))
    await survivor.stop()
    await doomed.stop().catch(() => undefined)
  }
}

const loadBefore = loadAverage()
console.log(`reconnect storm: ${clients} clients, ${args['first-share']} % on the edge killed; load ${loadBefore}`)
try {
  const rows = []
  for (const mode of modes)
    for (const recovery of recoveries)
      for (const format of formats)
        // a snapshot recovery replays nothing: one run whatever the replays asked
        for (const replay of recovery === 'resume' ? replays : [replays[0]!]) rows.push(await storm({ mode, recovery, format, replay }))
  reportRows('stream-storm', args, rows, loadBefore, 'Reconnect storm')
} finally {
  await nc.close()
  await nats.dispose()
}
process.exit(0)
