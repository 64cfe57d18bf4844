// The stream's ceiling at the real feed's rhythm: connections each taking 8 random pairs (10 % every pair),
// every pair ticking once per 400 ms slot, at growing counts per edge process (up to the 20,000 open files
// a process may hold), for one edge process, for EDGE_WORKERS=2 on one port, and for the bare
// uWebSockets.js server in the same run. Per count: tick-to-client p50/p99/p999, delivered against expected,
// gaps, the server's CPU and RSS, and its memory per connection (RSS with the connections less RSS before).
// Each count gets a freshly started server. The edges run on CPU 0 (both CPUs with 2 workers), the native
// client processes and the publisher on CPU 1.
// Usage: npm run bench:stream-ceiling [-- --counts 1000,5000,10000,19000 --workers 1,2 --seconds 10 --warmup 2 --no-baseline]
import { connect } from '@nats-io/transport-node'
import { parseCommandLine, progressReporter } from '../kit/command-line.ts'
import { loadAverage } from '../loadtest/cpu-meter.ts'
import { buildLoadClient } from '../loadtest/native-stream-client.ts'
import { clientGroups, loopbackSources, NativeStreamSession } from '../loadtest/native-stream-load.ts'
import { pairSelectionProblem } from '../loadtest/stream-load.ts'
import { totalRssMb } from '../loadtest/server-processes.ts'
import { freePort, startNats } from '../test/support/servers.ts'
import { reportRows } from './report.ts'
import { startBaselineServer, startStreamService, type StreamServer } from './stream-servers.ts'

const command = parseCommandLine({
  usage: 'npm run bench:stream-ceiling -- [options]',
  summary:
    "The stream's ceiling at the real feed's rhythm: growing connection counts per edge process, each connection taking\n" +
    '--pairs, every pair ticking once per slot; tick-to-client latency, delivered against expected, gaps, CPU and\n' +
    'memory per connection, for the edge and the bare uWebSockets.js server in one run. JSON rows on stdout,\n' +
    'progress on stderr.',
  options: {
    counts: {
      type: 'string',
      default: '1000,5000,10000,19000',
      value: 'LIST',
      description: 'connections per edge process, comma-separated',
    },
    workers: { type: 'string', default: '1,2', value: 'LIST', description: 'edge workers (EDGE_WORKERS) to measure, comma-separated' },
    seconds: { type: 'string', default: '10', value: 'S', description: 'seconds measured per count' },
    warmup: { type: 'string', default: '2', value: 'S', description: 'seconds of publishing before each measurement' },
    pairs: { type: 'string', default: 'rand:8', value: 'all|rand:N|A,B', description: 'what each connection takes' },
    'all-pairs-share': {
      type: 'string',
      default: '10',
      value: 'PCT',
      description: 'with rand:N, the share of connections taking every pair',
    },
    'slot-ms': { type: 'string', default: '400', value: 'MS', description: 'the slot in which every pair ticks once' },
    'no-baseline': { type: 'boolean', default: false, description: 'skip the bare uWebSockets.js server' },
  },
})
const args = command.values
const counts = command.numbers('counts', { min: 1, integer: true })
const workerCounts = command.numbers('workers', { min: 1, integer: true })
for (const option of ['seconds', 'warmup', 'all-pairs-share', 'slot-ms'] as const) command.number(option, { min: 0 })
const pairsProblem = pairSelectionProblem(args.pairs)
if (pairsProblem) command.refuse(pairsProblem)
const progress = progressReporter()
const clientBinary = buildLoadClient()
const nats = await startNats()
const nc = await connect({ servers: nats.url, name: 'stream-ceiling-publisher' })

const kinds: Array<{ name: string; processes: number; start: () => Promise<StreamServer> }> = workerCounts.flatMap((workers) => [
  {
    name: workers === 1 ? 'service' : `service, EDGE_WORKERS=${workers}`,
    processes: workers,
    start: async () => startStreamService({ natsUrl: nats.url, workers, port: await freePort(), cpus: workers === 1 ? '0' : '0,1' }),
  },
  ...(args['no-baseline'] || workers > 1
    ? []
    : [
        {
          name: 'bare uWS',
          processes: 1,
          start: async () => startBaselineServer({ natsUrl: nats.url, port: await freePort(), cpus: '0' }),
        },
      ]),
])

const rows: Array<Record<string, string | number>> = []
const loadBefore = loadAverage()
console.log(
  `stream ceiling: ${counts.join(', ')} connections per edge process, ${args.pairs} (${args['all-pairs-share']} % every pair), load ${loadBefore}`,
)
try {
  for (const count of counts) {
    for (const kind of kinds) {
      const connections = count * kind.processes
      progress(`${kind.name}: ${connections} connections`)
      const server = await kind.start()
      try {
        const idleRssMb = totalRssMb(server.pids())
        const session = await NativeStreamSession.open({
          target: `http://127.0.0.1:${server.port}`,
          clientBinary,
          groups: clientGroups(connections),
          pairs: args.pairs,
          allPairsShare: Number(args['all-pairs-share']),
          sources: loopbackSources(connections),
          cpus: '1',
          nc,
          namespace: server.namespace,
          serverPids: server.pids(),
        })
        try {
          const result = await session.run({
            ticksPerSecond: 0,
            slotMs: Number(args['slot-ms']),
            warmupSeconds: Number(args.warmup),
            durationSeconds: Number(args.seconds),
            log: (line) => progress(`${kind.name} ${connections}: ${line}`),
          })
          const totals = result.totals as Record<string, number>
          rows.push({
            server: kind.name,
            connections,
            'p50 ms': result.latency.p50Ms,
            'p99 ms': result.latency.p99Ms,
            'p99.9 ms': result.latency.p999Ms,
            'delivered/expected': totals.deliveredShareOfExpected ?? '',
            gaps: totals.gaps! + totals.seqGaps!,
            'server CPU %': totals.serverCpuPercentOfOneCore!,
            'server RSS MB': totals.serverRssMb!,
            'KB per connection': Math.round(((totals.serverRssMb! - idleRssMb) * 1024) / connections),
            'client CPU %': result.loadClient.cpuPercentOfCores,
          })
          console.log(JSON.stringify(rows.at(-1)))
        } finally {
          await session.close()
        }
      } finally {
        await server.stop()
      }
    }
  }
  reportRows('stream-ceiling', args, rows, loadBefore, 'Stream ceiling: connections against p99 and memory')
} finally {
  await nc.close()
  await nats.dispose()
}
process.exit(0)
