// Calendar cost: ingest throughput with the market-hours calendar (calendarMarketClock) against the
// always-open clock that answers with constants (alwaysOpenMarketClock). A third clock asks the calendar
// for the flags but puts the always-open clock's small `schedule` object on rows, which tells the cost
// of evaluating the calendar apart from the cost of the calendar's bigger rows.
// Two measurements, each clock in turn, the order rotating from run to run:
// - ingestor stage: source → normalise → encode → in-process bus (nothing downstream), where the
//   clock's share of the work is largest;
// - end to end: source → ingestor → NATS → snapshot materializer (as bench/ingest.ts).
// Ratios are taken from ticks per CPU second of this process: on a shared machine other processes move
// wall-clock rates by tens of percent from run to run, CPU time far less. Wall-clock rates are kept too.
// A clock passes when the median of its per-run ratios to the always-open clock is at least 0.95.
// Usage: npm run bench:calendar [-- --ticks 100000 --runs 15]
import { pino } from 'pino'
import { inProcessPriceBus } from '../bus/in-process-price-bus.ts'
import { parseCommandLine, progressReporter } from '../kit/command-line.ts'
import { createMetrics } from '../kit/metrics.ts'
import { PAIRS } from '../schemas/pairs.ts'
import { startIngestor } from '../services/ingestor/ingestor.ts'
import { alwaysOpenMarketClock, type MarketClock } from '../services/market-hours/market-clock.ts'
import { calendarMarketClock } from '../services/market-hours/calendar-market-clock.ts'
import { startNats } from '../test/support/servers.ts'
import { burstSource, endToEndThroughput, timed, type Throughput } from './ingest-pipeline.ts'
import { median, printTable, writeResult } from './report.ts'

const command = parseCommandLine({
  usage: 'npm run bench:calendar -- [options]',
  summary:
    "Calendar cost: the ingestor's ticks per CPU second with the market-hours calendar against an always-open clock,\n" +
    'in the ingestor stage alone and end to end through NATS; passes at a median ratio of at least 0.95.',
  options: {
    ticks: { type: 'string', default: '100000', value: 'N', description: 'ticks per measurement' },
    runs: { type: 'string', default: '15', value: 'N', description: 'runs of each clock, the order rotating' },
  },
})
const ticks = command.number('ticks', { min: 1, integer: true })
const runs = command.number('runs', { min: 1, integer: true })
const progress = progressReporter()
const logger = pino({ level: 'warn' })
const PASS_RATIO = 0.95

// One clock of each kind for the whole bench, as the ingestor keeps one for its life. The calendar
// builds each schedule's time line on first use: done here, outside the measurements.
const alwaysOpen = alwaysOpenMarketClock()
const calendar = calendarMarketClock()
for (const pair of PAIRS) calendar.flagsAt(pair.id, Date.now()) // throws past the calendar's data: nothing to measure then
const clocks = {
  'always open': alwaysOpen,
  calendar,
  'calendar flags only': { ...calendar, scheduleFor: alwaysOpen.scheduleFor } satisfies MarketClock,
}
type ClockName = keyof typeof clocks
const CLOCK_NAMES = Object.keys(clocks) as ClockName[]
const COMPARED = CLOCK_NAMES.filter((name) => name !== 'always open')

/** The ingestor alone: the source's quotes normalised, encoded and published on an in-process bus. */
async function ingestorStageThroughput(clock: MarketClock): Promise<Throughput> {
  const bus = inProcessPriceBus()
  let stopIngestor = async () => {}
  const throughput = await timed(ticks, async () => {
    await new Promise<void>((emittedAll) => {
      const ingestor = startIngestor({ source: burstSource(ticks, emittedAll), bus, clock, logger, metrics: createMetrics() })
      stopIngestor = ingestor.stop
    })
  })
  await stopIngestor()
  await bus.close()
  return throughput
}

const nats = await startNats()
const measurements: Record<string, (clock: MarketClock) => Promise<Throughput>> = {
  'ingestor stage': ingestorStageThroughput,
  'end to end (NATS)': (clock) => endToEndThroughput({ natsUrl: nats.url, ticks, clock, logger }),
}

console.log(`calendar cost: ${ticks.toLocaleString('en-US')} ticks per measurement, ${runs} runs of each clock, order rotating`)
for (const measure of Object.values(measurements)) for (const clock of Object.values(clocks)) await measure(clock) // warm-up

interface ClockFigures {
  medianTicksPerSecond: number
  medianTicksPerCpuSecond: number
  /** median of the per-run ratios of ticks per CPU second to the always-open clock's */
  medianRatio?: number
  /** the ratios between the first and third quartiles: how far the runs disagreed */
  middleHalfOfRatios?: [number, number]
  pass?: boolean
}
const rows: Array<Record<string, string | number>> = []
const summary: Record<string, Partial<Record<ClockName, ClockFigures>>> = {}
for (const [mode, measure] of Object.entries(measurements)) {
  const results = Object.fromEntries(CLOCK_NAMES.map((name) => [name, [] as Throughput[]])) as Record<ClockName, Throughput[]>
  for (let run = 0; run < runs; run++) {
    progress(`${mode}: run ${run + 1} of ${runs}`)
    const order = CLOCK_NAMES.map((_, index) => CLOCK_NAMES[(index + run) % CLOCK_NAMES.length]!)
    for (const name of order) results[name].push(await measure(clocks[name]))
    const row: Record<string, string | number> = { mode, run: run + 1 }
    for (const name of CLOCK_NAMES) row[`${name} ticks/CPU-s`] = Math.round(results[name][run]!.ticksPerCpuSecond)
    for (const name of COMPARED)
      row[`${name} ratio`] = results[name][run]!.ticksPerCpuSecond / results['always open'][run]!.ticksPerCpuSecond
    rows.push(row)
  }
  summary[mode] = {}
  for (const name of CLOCK_NAMES) {
    const figures: ClockFigures = {
      medianTicksPerSecond: Math.round(median(results[name].map((result) => result.ticksPerSecond))),
      medianTicksPerCpuSecond: Math.round(median(results[name].map((result) => result.ticksPerCpuSecond))),
    }
    if (name !== 'always open') {
      const ratios = results[name].map((result, run) => result.ticksPerCpuSecond / results['always open'][run]!.ticksPerCpuSecond)
      const sorted = [...ratios].sort((a, b) => a - b)
      figures.medianRatio = median(ratios)
      figures.middleHalfOfRatios = [sorted[Math.floor(runs / 4)]!, sorted[Math.floor((3 * runs) / 4)]!]
      figures.pass = figures.medianRatio >= PASS_RATIO
    }
    summary[mode][name] = figures
  }
}
printTable(rows)
for (const [mode, figures] of Object.entries(summary)) {
  for (const name of COMPARED) {
    const { medianRatio, middleHalfOfRatios, pass } = figures[name]!
    const spread = middleHalfOfRatios!.map((ratio) => ratio.toFixed(3)).join(' to ')
    console.log(
      `${mode}, ${name}: median ratio ${medianRatio!.toFixed(3)}, middle half ${spread} (${pass ? 'pass' : 'FAIL'}: at least ${PASS_RATIO})`,
    )
  }
}
console.log(`written ${writeResult('calendar-cost', { ticks, runs: rows, summary, passRatio: PASS_RATIO })}`)
await nats.dispose()
process.exit(0)
