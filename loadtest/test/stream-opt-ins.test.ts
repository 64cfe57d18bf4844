// test weight: heavy (a load client and service processes, both busy): the runner counts this file a whole core (test/runner/schedule.ts)
// The stream load with the stream's opt-ins, run as a user runs it (the package bin): `--heartbeat S` counts the
// heartbeat frames of quiet connections (an edge with no feed: nothing but heartbeats), `--rate fixed_rate@...`
// counts the seq jumps of a fixed rate as folded ticks, not as losses, `--channel candles` holds the candle stream.
import t from 'tap'
import { join } from 'node:path'
import { freePort } from '../../test/support/servers.ts'
import { startServiceProcess, UNUSED_INDEXED_SOURCE } from '../../test/support/service-process.ts'
import { failedRun, readResult, runLoadtest as loadtest, startTargetService } from './run-bin.ts'

const dir = t.testdir()

/** The edge's count of a `venue_stream_frames_total` type, at real time. */
async function framesSent(opsPort: number, type: string): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${opsPort}/metrics`)).text()
  return Number(new RegExp(`^venue_stream_frames_total\\{type="${type}",rate="real_time"\\} (\\d+)`, 'm').exec(text)?.[1] ?? 0)
}

/** four connections, opened at once, for four seconds */
const FOUR_CONNECTIONS = ['--connections', '4', '--ramp', '100', '--duration', '4']

t.test('--heartbeat: quiet connections get heartbeats, each one counted', async (t) => {
  const [port, opsPort] = [await freePort(), await freePort()]
  const edge = startServiceProcess(['edge'], {
    ...UNUSED_INDEXED_SOURCE,
    PORT: String(port),
    OPS_PORT: String(opsPort),
    HOST: '127.0.0.1',
    ONBOARDING_ENABLED: 'false',
    RATE_LIMITS_ENABLED: 'false',
  })
  t.teardown(() => edge.stop())
  await edge.waitForLog('edge listening')
  const out = join(dir, 'heartbeat')
  await loadtest([
    'stream',
    '--target',
    `http://127.0.0.1:${port}`,
    ...FOUR_CONNECTIONS,
    '--heartbeat',
    '1',
    '--owns-service',
    '--out',
    out,
  ])
  const { totals, series } = readResult(out)
  const sent = await framesSent(opsPort, 'heartbeat')
  t.comment(JSON.stringify({ heartbeats: totals.heartbeats, sent }))
  t.equal(totals.ticks, 0, 'no feed: no ticks')
  t.ok((totals.heartbeats as number) >= 4, 'heartbeats on every connection')
  t.ok(
    (totals.heartbeats as number) <= sent && (totals.heartbeats as number) >= sent - 4,
    'every heartbeat the edge sent is counted, but for at most one per connection in flight at the end',
  )
  t.ok(
    series.every((second) => 'heartbeats' in second.extra),
    'each second shows its heartbeats',
  )
})

for (const batch of [false, true])
  t.test(
    `--rate fixed_rate@200ms${batch ? ' --batch' : ''}: rows at most once per window, their seq jumps counted as folded`,
    async (t) => {
      const { target } = await startTargetService(t, { SIM_TICKS_PER_SECOND: '1000', RATE_LIMITS_ENABLED: 'false' })
      const out = join(dir, batch ? 'fixed-rate-batch' : 'fixed-rate')
      const batched = batch ? ['--batch'] : []
      await loadtest([
        'stream',
        '--target',
        target,
        ...FOUR_CONNECTIONS,
        '--rate',
        'fixed_rate@200ms',
        ...batched,
        '--owns-service',
        '--out',
        out,
      ])
      const { totals, series } = readResult(out)
      t.comment(JSON.stringify(totals))
      t.equal(totals.unexplained, 0, 'no seq jump counted as a loss')
      t.equal(totals.gaps, 0)
      t.ok((totals.folded as number) > 0, 'ticks folded into the rows')
      // 83 pairs, 5 windows a second: at most 415 rows a second per connection (one window more at a second's edge)
      t.ok(
        series.every((second) => second.deliveredPerSecond <= 4 * 83 * 6),
        `at most a row per pair per window (${series.map((second) => second.deliveredPerSecond).join(', ')} a second)`,
      )
      t.ok(series.every((second) => 'folded' in second.extra))
    },
  )

t.test('--channel candles: candle-stream connections, their candle frames counted', async (t) => {
  const { target } = await startTargetService(t, { SIM_TICKS_PER_SECOND: '1000', RATE_LIMITS_ENABLED: 'false' })
  const out = join(dir, 'candles')
  const pairs = 'BTC-USD,ETH-USD'
  await loadtest([
    'stream',
    '--target',
    target,
    '--channel',
    'candles',
    '--pairs',
    pairs,
    ...FOUR_CONNECTIONS,
    '--owns-service',
    '--out',
    out,
  ])
  const { totals, series, latencyMeaning, options } = readResult(out)
  t.comment(JSON.stringify(totals))
  t.equal(totals.snapshots, 4, 'a snapshot on each connection')
  t.equal(totals.upgrades, 4)
  t.same(totals.refused, {})
  t.ok((totals.ticks as number) > 0, 'candle frames received')
  // two pairs, at most one forming frame a second each, and one closed frame when a minute ends
  t.ok(
    series.every((second) => second.deliveredPerSecond <= 4 * 2 * 3),
    `at most a frame per pair per second and connection (${series.map((second) => second.deliveredPerSecond).join(', ')} a second)`,
  )
  t.equal(totals.gaps, 0)
  t.ok(
    series.every((second) => 'closed' in second.extra),
    'each second shows its closed candles',
  )
  t.match(latencyMeaning, /^closed-candle delay: from the end of a candle's period/)
  t.match(options, { channel: 'candles', resolution: '1', pairs })
})

t.test(
  '--heartbeat out of range, an unknown --rate, either on the native client, and --batch over SSE are refused before any load',
  async (t) => {
    const base = ['stream', '--target', 'http://127.0.0.1:9', '--duration', '1']
    const tooLong = await failedRun([...base, '--heartbeat', '61'])
    t.equal(tooLong?.code, 2)
    t.match(tooLong?.stderr, /--heartbeat takes a whole number from 1 to 60, not "61"/)
    const unknown = await failedRun([...base, '--rate', 'fixed_rate@100ms'])
    t.equal(unknown?.code, 2)
    t.match(unknown?.stderr, /--rate is one of real_time, fixed_rate@50ms, fixed_rate@200ms, fixed_rate@1000ms, not "fixed_rate@100ms"/)
    const native = await failedRun([...base, '--client', 'native', '--heartbeat', '5'])
    t.equal(native?.code, 2)
    t.match(native?.stderr, /--heartbeat and --rate run on the node client/)
    const batchOverEvents = await failedRun([...base, '--batch', '--transport', 'sse'])
    t.equal(batchOverEvents?.code, 2)
    t.match(batchOverEvents?.stderr, /--batch is for WebSocket: an event stream sends one event per frame/)
  },
)

t.test('--channel candles: an unknown --resolution, --rate, --resume or the native client are refused before any load', async (t) => {
  const base = ['stream', '--target', 'http://127.0.0.1:9', '--duration', '1', '--channel', 'candles']
  const cases: Array<[string[], RegExp]> = [
    [['--resolution', '2'], /--resolution is one of 1, 5, 15, 60, 240, 1D, not "2"/],
    [['--rate', 'fixed_rate@200ms'], /--resume and --rate are the price stream's/],
    [['--resume'], /--resume and --rate are the price stream's/],
    [['--client', 'native', '--publish', 'nats://127.0.0.1:9', '--owns-service'], /--channel candles runs on the node client/],
  ]
  for (const [args, message] of cases) {
    const refused = await failedRun([...base, ...args])
    t.equal(refused?.code, 2, args.join(' '))
    t.match(refused?.stderr, message, args.join(' '))
  }
  const unknown = await failedRun([...base.slice(0, -1), 'trades'])
  t.match(unknown?.stderr, /--channel is prices or candles, not "trades"/)
})
