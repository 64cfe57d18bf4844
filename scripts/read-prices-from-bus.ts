// An internal service's view of prices, straight from NATS: the latest row of every pair, then ticks.
//   NATS_URL=nats://localhost:4222 npm run example:bus-reader -- BTC-USD ETH-USD
// BUS_NAMESPACE as the deployment sets it; no pairs means every pair. Stops after --seconds (default 10).
// With --from <cursor> (a stream frame's `cursor`, or one this reader printed) it replays the ticks after it from
// the deployment's tick stream, each with its per-pair seq and cursor, then goes on live: nothing missed.
import { DeliverPolicy, jetstream } from '@nats-io/jetstream'
import { connect } from '@nats-io/transport-node'
import { openTickStream, SEQ_HEADER } from '../bus/nats-tick-log.ts'
import { DEFAULT_RESUME_WINDOW_SECONDS } from '../bus/price-bus.ts'
import { openPriceReader } from '../bus/price-reader.ts'
import { busNames } from '../bus/subjects.ts'
import { parseCommandLine } from '../kit/command-line.ts'
import { PAIRS } from '../schemas/pairs.ts'
import { formatCursor, parseCursor, type Cursor } from '../services/stream/cursor.ts'

const command = parseCommandLine({
  usage: 'npm run example:bus-reader -- [--from CURSOR] [PAIR ...]',
  summary:
    "An internal service's view of prices, straight from NATS: the latest row of the pairs given (or of the first\n" +
    'five), then their ticks (every pair when none is given) for --seconds. With --from, the ticks after a cursor\n' +
    'instead, replayed from the tick stream, then live ones.',
  maxPositionals: Number.POSITIVE_INFINITY,
  options: {
    seconds: { type: 'string', default: '10', value: 'S', description: 'how long to read ticks' },
    from: {
      type: 'string',
      value: 'CURSOR',
      description: "replay the ticks after this cursor (a stream frame's `cursor`, <epoch>-<position>), then live ones",
    },
  },
  notes: 'environment: NATS_URL (default nats://127.0.0.1:4222), and BUS_NAMESPACE as the deployment sets it',
})
const pairs = command.positionals
for (const pair of pairs) if (!PAIRS.some(({ symbol }) => symbol === pair)) command.refuse(`${pair} is not a listed pair (e.g. BTC-USD)`)
const from = command.values.from === undefined ? undefined : parseCursor(command.values.from)
if (command.values.from !== undefined && !from) command.refuse(`--from is a cursor such as 1a2b3c-42, not "${command.values.from}"`)
const durationMs = command.number('seconds', { min: 0 }) * 1000
const servers = process.env.NATS_URL ?? 'nats://127.0.0.1:4222'
const namespace = process.env.BUS_NAMESPACE ?? ''

if (from) await replayFrom(from)
else await readLatestThenTicks()

async function readLatestThenTicks() {
  const reader = await openPriceReader({
    servers,
    namespace,
    name: 'example-bus-reader',
    onInvalid: (pair, reason) => console.warn(`skipped a row of ${pair}: ${reason}`),
  })
  const latest = await reader.latest()
  console.log(`latest rows of ${latest.size} pairs`)
  for (const pair of pairs.length > 0 ? pairs : [...latest.keys()].slice(0, 5)) {
    const row = latest.get(pair)
    console.log(row ? `${pair} mid ${row.mid} at ${new Date(row.timestampSeconds * 1000).toISOString()}` : `${pair}: no row yet`)
  }
  const ticks = reader.ticks(pairs.length > 0 ? { pairs } : {})
  setTimeout(() => ticks.stop(), durationMs)
  let count = 0
  for await (const row of ticks) if (++count <= 20) console.log(`tick ${row.pair} bid ${row.bid} mid ${row.mid} ask ${row.ask}`)
  console.log(`${count} ticks`)
  await reader.close()
}

/**
 * The ticks after `after`, from the JetStream stream that numbers them (the stream sequence is the cursor's
 * position): an ordered consumer that starts at the next position (the pairs asked for are picked here: a
 * server before 2.10 takes one subject filter per consumer, and one pair is one subject). A cursor
 * of another epoch, or older than what the stream still holds, cannot be replayed: read the latest rows instead.
 */
async function replayFrom(after: Cursor) {
  const nc = await connect({ servers, name: 'example-bus-reader' })
  const names = busNames(namespace)
  const stream = await openTickStream(nc, names, { windowSeconds: DEFAULT_RESUME_WINDOW_SECONDS, replicas: 1 })
  const js = jetstream(nc)
  const { state } = await (await js.streams.get(names.tickStream)).info()
  const refusal =
    after.epoch !== stream.epoch
      ? `the cursor is of another epoch (the tick stream's is ${stream.epoch})`
      : after.position + 1 < state.first_seq
        ? `the cursor is older than the tick stream holds (from ${formatCursor(stream.epoch, state.first_seq)})`
        : undefined
  if (refusal) {
    console.log(`not recovered: ${refusal}; read the latest rows instead (without --from)`)
    await nc.close()
    process.exit(1)
  }
  const consumer = await js.consumers.get(names.tickStream, {
    deliver_policy: DeliverPolicy.StartSequence,
    opt_start_seq: after.position + 1,
  })
  const wanted = pairs.length > 0 ? new Set(pairs) : undefined
  const messages = await consumer.consume()
  setTimeout(() => void messages.close(), durationMs)
  console.log(`recovered: the ticks after ${formatCursor(after.epoch, after.position)} (up to ${state.last_seq} held now), then live ones`)
  let count = 0
  for await (const message of messages) {
    const pair = names.pairOfTickSubject(message.subject)
    if (wanted && !wanted.has(pair)) continue
    const row = message.json<{ mid: number }>()
    const cursor = formatCursor(stream.epoch, message.seq)
    console.log(`tick ${pair} seq ${message.headers?.get(SEQ_HEADER)} mid ${row.mid} cursor ${cursor}`)
    count++
  }
  console.log(`${count} ticks`)
  await nc.close()
}
