// The repository's native stream client, built by its own script and run against a real edge on a real
// nats-server: a tiny realistic profile (random pairs, a share taking every pair, the feed's slot rhythm,
// several source addresses), reconnects paced by the edge's admission rate, and the move to another port
// (another edge) when one is gone; and the publisher of the feed's slots that the benches drive it with.
import t, { type Test } from 'tap'
import { connect } from '@nats-io/transport-node'
import { execFileSync } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { silentLogger } from '../../test/support/silent-logger.ts'
import { natsPriceBus } from '../../bus/nats-price-bus.ts'
import { startTestEdge } from '../../test/support/edge-harness.ts'
import { freePort, startNats } from '../../test/support/servers.ts'
import { waitFor } from '../../test/support/wait.ts'
import { busNames } from '../../bus/subjects.ts'
import { PAIRS } from '../../schemas/pairs.ts'
import { buildLoadClient, LoadClient, microsecondsSinceStamp, StampedTickPublisher, type ClientReport } from '../native-stream-client.ts'
import { NativeStreamSession } from '../native-stream-load.ts'

const nats = await startNats()
t.teardown(() => nats.dispose())
const namespace = `native${randomUUID().slice(0, 8)}`
const bus = await natsPriceBus({ servers: nats.url, namespace, name: 'native-client-test', logger: silentLogger() })
t.teardown(() => bus.close())
const nc = await connect({ servers: nats.url, name: 'native-client-test-publisher' })
t.teardown(() => nc.close())
const binary = buildLoadClient()

/** The established connections to `port`, counted by source address. */
const bySource = (port: number) => {
  const counts: Record<string, number> = {}
  for (const line of execFileSync('ss', ['-tnH', 'state', 'established', `( dport = :${port} )`], { encoding: 'utf8' }).split('\n')) {
    const source = line.trim().split(/\s+/)[2]?.replace(/:\d+$/, '')
    if (source) counts[source] = (counts[source] ?? 0) + 1
  }
  return counts
}

t.test('a tiny realistic profile: every tick of the pairs taken arrives in seq order, from two source addresses', async (t) => {
  const edge = await startTestEdge({
    bus,
    env: {
      RATE_LIMITS_ENABLED: 'false',
      STREAM_ALLOWED_ORIGINS: '*',
      STREAM_MAX_CONNECTIONS: '1000',
      STREAM_MAX_CONNECTIONS_PER_IP: '1000',
    },
  })
  t.teardown(edge.stop)
  const port = Number(new URL(edge.baseUrl).port)
  const session = await NativeStreamSession.open({
    target: edge.baseUrl,
    clientBinary: binary,
    groups: [60, 40],
    pairs: 'rand:8',
    allPairsShare: 10,
    sources: ['127.0.0.2', '127.0.0.3'],
    nc,
    namespace,
    serverPids: [process.pid],
  })
  t.teardown(() => session.close())
  t.same(bySource(port), { '127.0.0.2': 50, '127.0.0.3': 50 }, 'connections alternate between the source addresses')
  const result = await session.run({ ticksPerSecond: 0, slotMs: 400, warmupSeconds: 1, durationSeconds: 2, log: () => {} })
  const totals = result.totals as Record<string, number>
  t.match(totals, { connections: 100, failedConnections: 0, refusedUpgrades: 0, closes: 0, gaps: 0, seqGaps: 0, serverProcesses: 1 })
  t.ok(totals.ticks! > 0, `ticks delivered (${totals.ticks})`)
  // 2 s of 400 ms slots: 5 rounds of every pair, give or take the one at each edge of the window
  t.ok(
    totals.deliveredShareOfExpected! >= 0.6 && totals.deliveredShareOfExpected! <= 1.4,
    `delivered against expected (${totals.deliveredShareOfExpected})`,
  )
  t.ok(totals.serverRssMb! > 0, 'the server RSS')
  t.equal(result.series.length, 2)
  t.ok(
    result.series.every((second) => second.offeredPerSecond === totals.expectedPerSecond),
    'each second offers what the pairs taken expect at 2.5 rounds a second',
  )
})

t.test('compact frames: every tick arrives in seq order with its latency, as with full rows stamped the same way', async (t) => {
  const edge = await startTestEdge({ bus, env: { RATE_LIMITS_ENABLED: 'false', STREAM_ALLOWED_ORIGINS: '*' } })
  t.teardown(edge.stop)
  for (const format of ['full', 'compact'] as const) {
    const session = await NativeStreamSession.open({
      target: edge.baseUrl,
      clientBinary: binary,
      groups: [20],
      pairs: 'all',
      nc,
      namespace,
      format,
      rows: 'in-row',
    })
    try {
      const result = await session.run({ ticksPerSecond: 200, warmupSeconds: 0.5, durationSeconds: 1, log: () => {} })
      const totals = result.totals as Record<string, number>
      t.match(totals, { connections: 20, failedConnections: 0, closes: 0, gaps: 0, seqGaps: 0 }, `${format}: nothing lost`)
      t.ok(totals.ticks! > 0, `${format}: ticks delivered (${totals.ticks})`)
      // without a stamp read, the client's percentiles would be 0 (its maximum latency)
      t.ok(result.latency.p50Ms > 0 && result.latency.p50Ms < 1000, `${format}: latency from the stamp (p50 ${result.latency.p50Ms} ms)`)
    } finally {
      await session.close()
    }
  }
})

t.test(
  'compact frames at a fixed rate (--query beside --format): rows arrive with their latency, their seq jumps the ticks folded',
  async (t) => {
    const edge = await startTestEdge({ bus, env: { RATE_LIMITS_ENABLED: 'false', STREAM_ALLOWED_ORIGINS: '*' } })
    t.teardown(edge.stop)
    /** 20 all-pairs connections at fixed_rate@1000ms (compact unless told), latency from the stamp or from the window's end */
    const measure = async (
      windowMs?: number,
      { batch = false, format = 'compact' }: { batch?: boolean; format?: 'compact' | 'full' } = {},
    ) => {
      const session = await NativeStreamSession.open({
        target: edge.baseUrl,
        clientBinary: binary,
        groups: [20],
        pairs: 'all',
        query: `rate=fixed_rate@1000ms${batch ? '&batch=true' : ''}`,
        nc,
        namespace,
        format,
        rows: 'in-row',
        windowMs,
      })
      try {
        // each pair ticks every 415 ms (200 ticks/s over 83 pairs): two or three ticks folded into each window's row
        return await session.run({ ticksPerSecond: 200, warmupSeconds: 1, durationSeconds: 2, log: () => {} })
      } finally {
        await session.close()
      }
    }
    const fromStamp = await measure()
    const totals = fromStamp.totals as Record<string, number>
    t.match(totals, { connections: 20, failedConnections: 0, closes: 0, gaps: 0 }, 'nothing lost')
    t.ok(totals.ticks! > 0, `rows delivered (${totals.ticks})`)
    t.ok(totals.seqGaps! > 0, `seq jumps: the ticks folded (${totals.seqGaps})`)
    t.ok(
      fromStamp.latency.p50Ms > 0 && fromStamp.latency.p50Ms < 2000,
      `latency from the stamp, a window's wait included (p50 ${fromStamp.latency.p50Ms} ms)`,
    )
    // the same rows timed from the end of their window (--window-ms): the wait for the window's end is left out
    const fromWindowEnd = await measure(1000)
    t.ok(
      fromWindowEnd.latency.p50Ms > 0 && fromWindowEnd.latency.p50Ms < fromStamp.latency.p50Ms,
      `from the window's end: less than from the stamp (p50 ${fromWindowEnd.latency.p50Ms} ms against ${fromStamp.latency.p50Ms})`,
    )
    // each window in one batch frame (batch=true): the frames inside are read as if they came alone
    for (const format of ['compact', 'full'] as const) {
      const batched = await measure(1000, { batch: true, format })
      const batchTotals = batched.totals as Record<string, number>
      t.match(batchTotals, { connections: 20, failedConnections: 0, closes: 0, gaps: 0 }, `batched, ${format}: nothing lost`)
      t.ok(
        batchTotals.ticks! > 0 && batchTotals.seqGaps! > 0,
        `batched, ${format}: rows and their folded ticks read (${batchTotals.ticks}, ${batchTotals.seqGaps})`,
      )
      t.ok(batched.latency.p50Ms > 0, `batched, ${format}: latency from the window's end (p50 ${batched.latency.p50Ms} ms)`)
    }
  },
)

/** An edge that admits 100 upgrades a second after a burst of 40, telling refused clients to retry within 3 s. */
async function startPacedEdge(t: Test) {
  const edge = await startTestEdge({
    bus,
    env: {
      RATE_LIMITS_ENABLED: 'false',
      STREAM_ALLOWED_ORIGINS: '*',
      STREAM_MAX_CONNECTIONS_PER_IP: '1000',
      STREAM_UPGRADES_PER_SECOND: '100',
      STREAM_UPGRADE_BURST: '40',
      STREAM_UPGRADE_RETRY_MAX_SECONDS: '3',
    },
  })
  t.teardown(edge.stop)
  return edge
}

/** The client's report once `count` connections hold a snapshot. */
async function everySnapshot(client: LoadClient, count: number, what: string): Promise<ClientReport> {
  let report: ClientReport | undefined
  await waitFor(async () => (report = await client.report()).withSnapshot === count, { what, timeoutMs: 20_000 })
  return report!
}

t.test('the slot publisher: whole slots of JSON rows, never more than one per slot, until stopped', async (t) => {
  const slotMs = 100
  const slotsNamespace = `slots${randomUUID().slice(0, 8)}`
  const rows: string[] = []
  const subscription = nc.subscribe(busNames(slotsNamespace).allTicks, {
    callback: (_error, message) => void rows.push(message.string()),
  })
  t.teardown(() => subscription.unsubscribe())
  await nc.flush()
  const publisher = new StampedTickPublisher(nc, slotsNamespace)
  const stop = new AbortController()
  const startedAt = performance.now()
  const running = publisher.runSlots(slotMs, Number.POSITIVE_INFINITY, stop.signal)
  await waitFor(() => rows.length >= 3 * PAIRS.length, { what: 'three slots' })
  stop.abort()
  await running
  const elapsedMs = performance.now() - startedAt
  // the server answers this flush after delivering every row published before it to this same connection
  await nc.flush()
  const published = rows.length
  t.equal(published % PAIRS.length, 0, 'whole slots')
  t.ok(published / PAIRS.length <= Math.floor(elapsedMs / slotMs) + 1, 'at most one slot per slot length, the first at once')
  t.ok(
    rows.every((row) => Number.isInteger(JSON.parse(row).t)),
    'every row is JSON with its stamp',
  )
})

t.test("a stamp read back in the publishing process: the µs from its publish to the reader's callback", async (t) => {
  const stampsNamespace = `stamps${randomUUID().slice(0, 8)}`
  const received: Array<{ microseconds: number | undefined; afterPublish: number }> = []
  let publishedAt = 0
  const subscription = nc.subscribe(busNames(stampsNamespace).allTicks, {
    callback: (_error, message) =>
      void received.push({ microseconds: microsecondsSinceStamp(message.data), afterPublish: (performance.now() - publishedAt) * 1000 }),
  })
  t.teardown(() => subscription.unsubscribe())
  await nc.flush()
  publishedAt = performance.now()
  await new StampedTickPublisher(nc, stampsNamespace).warm()
  await waitFor(() => received.length === PAIRS.length, { what: 'a row of every pair' })
  for (const { microseconds, afterPublish } of received) {
    t.ok(microseconds !== undefined && microseconds >= 0, 'a stamp in every row')
    // the stamp is taken after the first publish's start and read before the callback's own clock reading
    t.ok(microseconds! <= afterPublish + 1, `at most the time since the publish began (${microseconds} µs, ${afterPublish} µs)`)
  }
  t.equal(microsecondsSinceStamp(Buffer.from('{"pair":"BTC-USD","bid":1}')), undefined, 'a row without a stamp has none')
})

t.test('reconnecting with backoff: refusals of the admission rate are waited out until every connection has its snapshot', async (t) => {
  const edge = await startPacedEdge(t)
  const client = new LoadClient({
    binary,
    ports: [Number(new URL(edge.baseUrl).port)],
    count: 150,
    pairs: 'rand:4',
    reconnect: 'backoff',
    inflight: 150,
  })
  t.teardown(() => client.close())
  const report = await everySnapshot(client, 150, 'every connection with its snapshot')
  t.ok(report.refused > 0, `some upgrades refused at first (${report.refused})`)
  t.equal(report.refused503, report.refused, 'every refusal a 503')
  t.equal(report.reconnects, report.refused, 'each refusal retried')
  t.match(report, { conns: 150, opened: 150, failed: 0, closes: 0, snapshots: 150 })
})

t.test('a port that refuses connections is left for the next; a 503 from a live edge is retried on that edge', async (t) => {
  const edge = await startPacedEdge(t)
  // nothing listens on the first port: every connection starts there, as on an edge that was killed
  const client = new LoadClient({
    binary,
    ports: [await freePort(), Number(new URL(edge.baseUrl).port)],
    count: 150,
    pairs: 'rand:4',
    reconnect: 'backoff',
    inflight: 150,
  })
  t.teardown(() => client.close())
  const report = await everySnapshot(client, 150, 'every connection with its snapshot on the live edge')
  t.equal(report.failed, 150, 'each connection failed once, on the dead port, and never went back to it')
  t.ok(report.refused503 > 0, `some upgrades refused by the live edge's admission rate (${report.refused503})`)
  t.equal(report.refused503, report.refused, 'every refusal a 503')
  t.equal(report.reconnects, report.failed + report.refused, 'each failure and refusal retried')
  t.match(report, { conns: 150, opened: 150, closes: 0, snapshots: 150 })
})
