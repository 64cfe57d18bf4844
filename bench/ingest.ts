// Ingest: ticks/s from a source through NATS into the snapshot materializer, beside the raw NATS
// publish ceiling (300-byte messages, one publisher and one subscriber connection) in the same run.
// Usage: npm run bench:ingest [-- --ticks 1000000 --runs 3]
import { connect } from '@nats-io/transport-node'
import { randomUUID } from 'node:crypto'
import { parseArgs } from 'node:util'
import { pino } from 'pino'
import { calendarMarketClock } from '../services/market-hours/calendar-market-clock.ts'
import { startNats } from '../test/support/servers.ts'
import { endToEndThroughput, reached } from './ingest-pipeline.ts'
import { median, printTable, writeResult } from './report.ts'

const { values: args } = parseArgs({ options: { ticks: { type: 'string', default: '1000000' }, runs: { type: 'string', default: '3' } } })
const ticks = Number(args.ticks)
const runs = Number(args.runs)
const logger = pino({ level: 'warn' })
const nats = await startNats()

/** Publishes `ticks` 300-byte messages as fast as the client takes them; the subscriber counts. */
async function rawNatsCeiling(): Promise<number> {
  const [publisher, subscriber] = await Promise.all([connect({ servers: nats.url }), connect({ servers: nats.url })])
  const subject = `raw${randomUUID().slice(0, 8)}.BTC-USD`
  let received = 0
  subscriber.subscribe(subject, { callback: () => void received++ })
  await subscriber.flush()
  const payload = new Uint8Array(300).fill(120)
  const started = performance.now()
  for (let sent = 0; sent < ticks; sent++) {
    publisher.publish(subject, payload)
    if (sent % 10_000 === 9_999) await publisher.flush()
  }
  await reached(() => received, ticks)
  const seconds = (performance.now() - started) / 1000
  await Promise.all([publisher.close(), subscriber.close()])
  return ticks / seconds
}

console.log(`ingest: ${ticks.toLocaleString('en-US')} ticks per measurement, ${runs} runs`)
const rows: Array<Record<string, string | number>> = []
const ratios: number[] = []
for (let run = 1; run <= runs; run++) {
  const raw = await rawNatsCeiling()
  const { ticksPerSecond: endToEnd } = await endToEndThroughput({ natsUrl: nats.url, ticks, clock: calendarMarketClock(), logger })
  ratios.push(endToEnd / raw)
  rows.push({ run, 'raw NATS msgs/s': Math.round(raw), 'end-to-end ticks/s': Math.round(endToEnd), 'share of ceiling': endToEnd / raw })
}
printTable(rows)
const endToEndRates = rows.map((row) => Number(row['end-to-end ticks/s']))
console.log(
  `median end-to-end ${Math.round(median(endToEndRates)).toLocaleString('en-US')} ticks/s (target >= 200,000); median share of the raw ceiling ${median(ratios).toFixed(2)}`,
)
console.log(
  `written ${writeResult('ingest', { ticks, runs: rows, medianTicksPerSecond: median(endToEndRates), medianShareOfCeiling: median(ratios) })}`,
)
await nats.dispose()
process.exit(0)
