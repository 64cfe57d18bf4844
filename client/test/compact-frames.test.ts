// The client with compact frames (`format: 'compact'`) beside one with full rows, on the same edge and ticks:
// its snapshot, every `price` event (row and seq) and its prices are the same, deep equal and as JSON text,
// through a pair's first tick, a changed feed id, flipped flags, and a dropped connection it resumes.
import t from 'tap'
import type WebSocket from 'ws'
import { startTestEdge } from '../../test/support/edge-harness.ts'
import { priceRow, rowBytes } from '../../test/support/price-rows.ts'
import { EVENT_DEADLINE_MS, waitFor, withDeadline } from '../../test/support/wait.ts'
import { nodeSocket } from '../src/node.ts'
import { PriceStreamClient, type PriceStreamEvents } from '../src/price-stream-client.ts'
import type { PriceRow } from '../src/stream-frames.ts'

const PAIRS = ['BTC-USD', 'ETH-USD', 'SOL-USD']

const next = <E extends keyof PriceStreamEvents>(client: PriceStreamClient, event: E) =>
  withDeadline(
    new Promise<PriceStreamEvents[E]>((resolve) => client.once(event, (...args: PriceStreamEvents[E]) => resolve(args))),
    EVENT_DEADLINE_MS,
    `the client's ${String(event)} event`,
  )

/** A client of the given format that records its snapshot, its price events and the URL of each connection. */
function recordingClient(baseUrl: string, format: 'full' | 'compact') {
  const record = {
    snapshots: [] as PriceRow[][],
    prices: [] as Array<{ seq: number; row: PriceRow }>,
    urls: [] as URL[],
    errors: [] as Error[],
  }
  let socket: WebSocket | undefined
  const client = new PriceStreamClient({
    baseUrl,
    pairs: PAIRS,
    format,
    backoff: { initialMs: 20, maxMs: 50 },
    openSocket: (url, onRefused) => {
      record.urls.push(url)
      return (socket = nodeSocket()(url, onRefused) as WebSocket)
    },
  })
  client.on('snapshot', (rows) => record.snapshots.push(rows))
  client.on('price', (row, seq) => record.prices.push({ seq, row }))
  client.on('error', (error) => record.errors.push(error))
  return { client: client.start(), record, drop: () => socket!.terminate() }
}

t.test('a compact client hands over the same rows as a full one, through static changes and a resume', async (t) => {
  const edge = await startTestEdge()
  t.teardown(edge.stop)
  const publish = (row: PriceRow) => edge.bus.publishTick(row.pair, rowBytes(row))
  publish(priceRow('BTC-USD', { mid: 100 }))
  publish(priceRow('ETH-USD', { mid: 3000 }))
  await waitFor(async () => (await fetch(`${edge.baseUrl}/v1/prices/ETH-USD`)).status === 200)

  const full = recordingClient(edge.baseUrl, 'full')
  const compact = recordingClient(edge.baseUrl, 'compact')
  t.teardown(() => Promise.all([full.client.close(), compact.client.close()]))
  await Promise.all([next(full.client, 'snapshot'), next(compact.client, 'snapshot')])
  t.equal(compact.record.urls[0]!.searchParams.get('format'), 'compact', 'the compact client asks for compact frames')
  t.equal(full.record.urls[0]!.searchParams.has('format'), false, 'the full one names no format: the stream as before')

  const closedFlags = { isMarketOpen: false, isDayTradingClosed: true, secondsToToggleIsDayTradingClosed: 3600 }
  const rows = [
    priceRow('BTC-USD', { mid: 101 }),
    priceRow('SOL-USD', { mid: 150 }), // no row in the snapshot: its static part comes first
    priceRow('ETH-USD', { mid: 3001, ...closedFlags }),
    priceRow('BTC-USD', { mid: 102, feed_id: '0x' + 'b'.repeat(64) }), // a new feed id: a static frame
    priceRow('BTC-USD', { mid: 103.125, bid: 103, ask: 103.25, feed_id: '0x' + 'b'.repeat(64) }),
  ]
  rows.forEach(publish)
  await waitFor(() => full.record.prices.length === 5 && compact.record.prices.length === 5, { what: '5 prices each' })

  // dropped while ticks go on: the compact client resumes with compact ticks, a static change among them
  const resumed = next(compact.client, 'resumed')
  compact.drop()
  const whileAway = [priceRow('SOL-USD', { mid: 151, feed_id: '0x' + 'c'.repeat(64) }), priceRow('ETH-USD', { mid: 3002 })]
  whileAway.forEach(publish)
  t.same((await resumed)[0].recovered, true, 'the resume recovered')
  await waitFor(() => full.record.prices.length === 7 && compact.record.prices.length === 7, { what: '7 prices each' })

  t.same(compact.record.snapshots, full.record.snapshots, 'the same snapshot')
  t.same(compact.record.prices, full.record.prices, 'the same rows and seq, deep equal')
  t.same(
    compact.record.prices.map((price) => JSON.stringify(price)),
    full.record.prices.map((price) => JSON.stringify(price)),
    'and as JSON text: the same fields in the same order',
  )
  t.same(
    full.record.prices.map(({ row }) => row),
    [...rows, ...whileAway].map((row) => JSON.parse(JSON.stringify(row)) as PriceRow),
    'which are the rows published',
  )
  t.same([...compact.client.prices], [...full.client.prices], 'the same latest row per pair')
  t.same(compact.record.errors, [])
  t.equal(compact.record.urls[1]!.searchParams.get('format'), 'compact', 'the resume asks for compact frames too')
})
