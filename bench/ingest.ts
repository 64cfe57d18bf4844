// Ingest: ticks/s from a source through NATS into the snapshot materializer, beside the raw NATS ceiling
// for the same messages in the same run: the pipeline's own row bytes, on the same per-pair subjects, in
// the same bursts, one publisher and one subscriber connection, and nothing else.
// Both are given by the clock and by this process's CPU time (which other processes disturb far less).
// Usage: npm run bench:ingest [-- --ticks 1000000 --runs 3]
import { connect } from '@nats-io/transport-node'
import { randomUUID } from 'node:crypto'
import { pino } from 'pino'
import { busNames } from '../bus/subjects.ts'
import { parseCommandLine, progressReporter } from '../kit/command-line.ts'
import { encodeRow } from '../services/ingestor/encode-row.ts'
import { normaliseQuote } from '../services/ingestor/normalize.ts'
import { simulatorSource } from '../services/ingestor/sources/simulator-source.ts'
import { calendarMarketClock } from '../services/market-hours/calendar-market-clock.ts'
import { startNats } from '../test/support/servers.ts'
import { loadAverage } from '../loadtest/cpu-meter.ts'
import { endToEndThroughput, reached, timed, type Throughput } from './ingest-pipeline.ts'
import { median, printTable, writeFiguresWithLoad } from './report.ts'

const command = parseCommandLine({
  usage: 'npm run bench:ingest -- [options]',
  summary:
    'Ingest: ticks/s from a source through NATS into the snapshot materializer, beside the raw NATS ceiling for the\n' +
    'same messages in the same run, by the clock and by CPU time. Prints a table; writes JSON under bench/results/.',
  options: {
    ticks: { type: 'string', default: '1000000', value: 'N', description: 'ticks per measurement' },
    runs: { type: 'string', default: '3', value: 'N', description: 'runs, each measuring the ceiling and the pipeline' },
  },
})
const ticks = command.number('ticks', { min: 1, integer: true })
const runs = command.number('runs', { min: 1, integer: true })
const progress = progressReporter()
const logger = pino({ level: 'warn' })
const nats = await startNats()
// one calendar for every run, as in a running ingestor (its timelines are built on first use)
const clock = calendarMarketClock()

/** The rows the pipeline publishes: the simulator's quotes, normalised with the calendar and encoded. */
function pipelineRows(): Array<{ pair: string; row: Buffer }> {
  const rows: Array<{ pair: string; row: Buffer }> = []
  const source = simulatorSource({ ticksPerSecond: 0, seed: 3, isTrading: () => true })
  const nowMs = Date.now()
  source.start({
    quote(quote) {
      const normalised = normaliseQuote({ ...quote, publishTimeSeconds: Math.floor(nowMs / 1000) }, clock, nowMs)
      if (normalised.ok) rows.push({ pair: normalised.row.pair, row: encodeRow(normalised.row) })
    },
    malformed: () => {},
  })
  void source.stop()
  return rows
}

/** The same bytes on the same subjects, published in bursts of 2000 a turn; the subscriber counts. */
async function rawNatsCeiling(rows: Array<{ pair: string; row: Buffer }>): Promise<Throughput> {
  const [publisher, subscriber] = await Promise.all([connect({ servers: nats.url }), connect({ servers: nats.url })])
  const names = busNames(`raw${randomUUID().slice(0, 8)}`)
  const subjects = rows.map(({ pair }) => names.tickSubject(pair))
  let received = 0
  subscriber.subscribe(names.allTicks, { callback: () => void received++ })
  await subscriber.flush()
  const throughput = await timed(ticks, async () => {
    let sent = 0
    const burst = () => {
      for (let i = 0; i < 2000 && sent < ticks; i++, sent++) publisher.publish(subjects[sent % rows.length]!, rows[sent % rows.length]!.row)
      if (sent < ticks) setImmediate(burst)
    }
    burst()
    await reached(() => received, ticks)
  })
  await Promise.all([publisher.close(), subscriber.close()])
  return throughput
}

const rows = pipelineRows()
const rowBytes = Math.round(rows.reduce((sum, { row }) => sum + row.length, 0) / rows.length)
const loadBefore = loadAverage()
console.log(
  `ingest: ${ticks.toLocaleString('en-US')} ticks per measurement, ${runs} runs, ${rows.length} pairs, rows of ${rowBytes} bytes on average`,
)
console.log(`load average ${loadBefore}`)
const table: Array<Record<string, string | number>> = []
const shares: number[] = []
const cpuShares: number[] = []
const endToEndRates: number[] = []
for (let run = 1; run <= runs; run++) {
  progress(`run ${run} of ${runs}`)
  const raw = await rawNatsCeiling(rows)
  const endToEnd = await endToEndThroughput({ natsUrl: nats.url, ticks, clock, logger })
  shares.push(endToEnd.ticksPerSecond / raw.ticksPerSecond)
  cpuShares.push(endToEnd.ticksPerCpuSecond / raw.ticksPerCpuSecond)
  endToEndRates.push(endToEnd.ticksPerSecond)
  table.push({
    run,
    'raw NATS msgs/s': Math.round(raw.ticksPerSecond),
    'end-to-end ticks/s': Math.round(endToEnd.ticksPerSecond),
    'share of ceiling': shares.at(-1)!,
    'raw msgs/CPU-s': Math.round(raw.ticksPerCpuSecond),
    'end-to-end ticks/CPU-s': Math.round(endToEnd.ticksPerCpuSecond),
    'share by CPU': cpuShares.at(-1)!,
  })
}
printTable(table)
console.log(
  `median end-to-end ${Math.round(median(endToEndRates)).toLocaleString('en-US')} ticks/s; median share of the raw ceiling ` +
    `${median(shares).toFixed(2)} by the clock, ${median(cpuShares).toFixed(2)} by CPU time (target >= 0.67)`,
)
writeFiguresWithLoad(
  'ingest',
  {
    ticks,
    rowBytes,
    runs: table,
    medianTicksPerSecond: median(endToEndRates),
    medianShareOfCeiling: median(shares),
    medianShareOfCeilingByCpu: median(cpuShares),
  },
  loadBefore,
)
await nats.dispose()
process.exit(0)
