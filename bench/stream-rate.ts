// Price stream at a chosen rate (`?rate=`): the edge's CPU and the rows' latency for all-pairs clients at
// real_time and at fixed rates, one fresh edge per rate, driven by the native load client (loadtest/native) with
// `rate=...` added to every connection's query. The edge is pinned to CPU 0, the client and this process (the
// publisher, round-robin over every pair) to CPU 1.
//
// Latency is from this process publishing a tick to the client reading the row at real time, and at a fixed rate
// from the end of the window the tick was published in (windows end on multiples of their length in wall-clock
// time, the edge's and the bare server's alike; a tick that reached the server after the boundary went out a
// window later, so the figure errs long, never short). Seq jumps at a fixed rate are the ticks folded, not losses.
// With --shapes, each fixed rate is measured in both window shapes, one frame per pair and one `batch` frame per
// window (`batch=true`), on the edge and on the bare uWebSockets.js baseline (bench/stream-baseline-uws-server.ts),
// which sends the same shapes: what the two shapes cost uWS with nothing else running, beside the service.
// With --formats full,compact each rate is measured with full rows and with compact frames (?format=compact; the
// rows are then stamped in a field of the row for every format, so all carry the same rows); the bare server
// plays full rows only.
// Usage: npm run bench:stream-rate [-- --clients 1000 --rate 2500 --rates real_time,fixed_rate@200ms --seconds 6
//        --warmup 2 --runs 1 --shapes --formats full,compact]
import { connect } from '@nats-io/transport-node'
import { parseCommandLine, progressReporter } from '../kit/command-line.ts'
import { PAIRS } from '../schemas/pairs.ts'
import { STREAM_RATES } from '../schemas/stream.ts'
import { windowMsOf, type FixedRate } from '../services/stream/stream-rate.ts'
import { loadAverage } from '../loadtest/cpu-meter.ts'
import { buildLoadClient } from '../loadtest/native-stream-client.ts'
import { NativeStreamSession } from '../loadtest/native-stream-load.ts'
import { pinRunning } from '../loadtest/pinning.ts'
import { totalCpuMs } from '../loadtest/server-processes.ts'
import { freePort, startNats } from '../test/support/servers.ts'
import { median, reportRows } from './report.ts'
import { startBaselineServer, startStreamService, type StreamServer } from './stream-servers.ts'

const command = parseCommandLine({
  usage: 'npm run bench:stream-rate -- [options]',
  summary:
    "Price stream at a chosen rate: the compiled edge's CPU, delivered messages/s and tick-to-client latency for\n" +
    'all-pairs clients at each rate, one edge per rate, driven by the native load client (needs cc).',
  options: {
    clients: { type: 'string', default: '1000', value: 'N', description: 'all-pairs connections' },
    rate: { type: 'string', default: '2500', value: 'N', description: 'ticks/s offered, round-robin over every pair' },
    rates: {
      type: 'string',
      default: 'real_time,fixed_rate@200ms',
      value: 'LIST',
      description: `stream rates measured: ${STREAM_RATES.join(', ')}`,
    },
    runs: { type: 'string', default: '1', value: 'N', description: 'runs of each rate' },
    seconds: { type: 'string', default: '6', value: 'S', description: 'seconds measured per run' },
    warmup: { type: 'string', default: '2', value: 'S', description: 'seconds of warm-up before each run' },
    formats: {
      type: 'string',
      default: 'full',
      value: 'LIST',
      description: 'stream formats measured at each rate (full, compact), comma-separated; with compact, every row is stamped in-row',
    },
    shapes: {
      type: 'boolean',
      default: false,
      description:
        'each fixed rate in both window shapes, one frame per pair and one batch frame per window (batch=true), on the edge and on the bare uWS server',
    },
  },
})
const whole = { min: 1, integer: true }
const clients = command.number('clients', whole)
const ticksPerSecond = command.number('rate', whole)
const runs = command.number('runs', whole)
const measureSeconds = command.number('seconds', { min: 0.1 })
const warmupSeconds = command.number('warmup', { min: 0 })
const streamRates = String(command.values.rates)
  .split(',')
  .map((rate) => command.choice('rates', STREAM_RATES, rate))
const formats = String(command.values.formats)
  .split(',')
  .map((format) => command.choice('formats', ['full', 'compact'] as const, format))
// compact connections need rows whose static part holds: then every format gets those rows
const rowsStamped = formats.includes('compact') ? 'in-row' : 'trailing'
const progress = progressReporter()

const clientBinary = buildLoadClient()
pinRunning('1', process.pid)
const nats = await startNats()
const publisher = await connect({ servers: nats.url, name: 'stream-rate-bench-publisher' })

type Row = Record<string, string | number>
/** how a fixed rate's window goes out: one frame per pair, or one `batch` frame (the service's `batch=true`) */
const WINDOW_SHAPES = ['per-pair', 'one-frame'] as const
type WindowShape = (typeof WINDOW_SHAPES)[number]
const rows: Row[] = []

/** One run on a fresh server: `clients` all-pairs connections (asking the edge for `streamRate` in `format`), one measured window. */
async function measure(
  streamRate: string,
  run: number,
  server: StreamServer,
  {
    format = 'full',
    shape,
    askBatch = false,
  }: {
    format?: 'full' | 'compact'
    /** the window shape measured, for the row */
    shape?: WindowShape
    /** the connections ask for `batch=true` (the edge's one-frame shape; the bare server's is its own setting) */
    askBatch?: boolean
  } = {},
): Promise<Row> {
  // at a fixed rate, latency is from the end of the window a row was published in (windows end on multiples of it)
  const fixedWindowMs = streamRate === 'real_time' ? undefined : windowMsOf(streamRate as FixedRate)
  try {
    const session = await NativeStreamSession.open({
      target: `http://127.0.0.1:${server.port}`,
      clientBinary,
      groups: [clients],
      pairs: 'all',
      query: streamRate === 'real_time' ? undefined : `rate=${streamRate}${askBatch ? '&batch=true' : ''}`,
      cpus: '1',
      nc: publisher,
      namespace: server.namespace,
      format,
      rows: rowsStamped,
      windowMs: fixedWindowMs,
    })
    try {
      progress(`${streamRate}, ${format}, run ${run}: ${clients} clients at ${ticksPerSecond} ticks/s`)
      let cpuPercent = 0
      const result = await session.run({
        ticksPerSecond,
        warmupSeconds,
        durationSeconds: measureSeconds,
        log: (line) => console.log(`  ${line}`),
        measured: () => {
          const [before, startedAt] = [totalCpuMs(server.pids()), performance.now()]
          return () => (cpuPercent = Math.round(((totalCpuMs(server.pids()) - before) / (performance.now() - startedAt)) * 1000) / 10)
        },
      })
      const totals = result.totals as { deliveredPerSecond: number; gaps: number; seqGaps: number }
      return {
        server: server.name,
        rate: streamRate,
        ...(formats.length > 1 && { format }),
        ...(shape !== undefined && { 'window shape': shape }),
        run,
        clients,
        'offered ticks/s': ticksPerSecond,
        'delivered msg/s': totals.deliveredPerSecond,
        'server CPU % of a core': cpuPercent,
        'latency from': fixedWindowMs === undefined ? 'publish' : 'window end',
        'p50 ms': result.latency.p50Ms,
        'p99 ms': result.latency.p99Ms,
        'max ms': result.latency.maxMs,
        'gaps (ticks announced)': totals.gaps,
        'seq jumps (folded at a fixed rate)': totals.seqGaps,
        'client CPU %': result.loadClient.cpuPercentOfCores,
      }
    } finally {
      await session.close()
    }
  } finally {
    await server.stop()
  }
}

const loadBefore = loadAverage()
console.log(
  `stream rate bench: ${clients} all-pairs clients, ${ticksPerSecond} ticks/s over ${PAIRS.length} pairs, rates ${streamRates.join(', ')}, ` +
    `${runs} run(s) of ${measureSeconds} s after ${warmupSeconds} s; load average ${loadBefore}`,
)
try {
  const edge = async () => startStreamService({ natsUrl: nats.url, workers: 1, port: await freePort(), cpus: '0' })
  const bare = async (window: string) => startBaselineServer({ natsUrl: nats.url, port: await freePort(), cpus: '0', window })
  for (let run = 1; run <= runs; run++) {
    for (const rate of streamRates) {
      const shapes = command.values.shapes && rate !== 'real_time' ? WINDOW_SHAPES : [undefined]
      for (const shape of shapes)
        for (const format of formats) rows.push(await measure(rate, run, await edge(), { format, shape, askBatch: shape === 'one-frame' }))
      if (!command.values.shapes || rate === 'real_time') continue
      for (const shape of WINDOW_SHAPES) rows.push(await measure(rate, run, await bare(`${windowMsOf(rate)}:${shape}`), { shape }))
    }
  }
  const kindOf = (row: Row) => [row.server, row.rate, row.format, row['window shape']].filter((part) => part !== undefined).join(', ')
  const byServer = Object.fromEntries(
    [...new Set(rows.map(kindOf))].map((kind) => {
      const mine = rows.filter((row) => kindOf(row) === kind)
      return [
        kind,
        {
          medianCpuPercent: median(mine.map((row) => Number(row['server CPU % of a core']))),
          medianP99Ms: median(mine.map((row) => Number(row['p99 ms']))),
        },
      ]
    }),
  )
  console.log(JSON.stringify(byServer, null, 2))
  reportRows(
    'stream-rate',
    { clients, ticksPerSecond, streamRates, formats, runs, measureSeconds, warmupSeconds },
    rows,
    loadBefore,
    'Price stream at a chosen rate',
  )
} finally {
  await publisher.close()
  await nats.dispose()
}
process.exit(0)
