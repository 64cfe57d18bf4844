// An internal service's view of prices, straight from NATS: the latest row of every pair, then ticks.
//   NATS_URL=nats://localhost:4222 npm run example:bus-reader -- BTC-USD ETH-USD
// BUS_NAMESPACE as the deployment sets it; no pairs means every pair. Stops after DURATION_MS (default 10 s).
import { openPriceReader } from '../bus/price-reader.ts'

const servers = process.env.NATS_URL ?? 'nats://127.0.0.1:4222'
const pairs = process.argv.slice(2)
const reader = await openPriceReader({
  servers,
  namespace: process.env.BUS_NAMESPACE ?? '',
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
setTimeout(() => ticks.stop(), Number(process.env.DURATION_MS ?? 10_000))
let count = 0
for await (const row of ticks) if (++count <= 20) console.log(`tick ${row.pair} bid ${row.bid} mid ${row.mid} ask ${row.ask}`)
console.log(`${count} ticks`)
await reader.close()
