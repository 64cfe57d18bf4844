// The engines that drive native load clients, run through the bin against an edge started separately on a
// real nats-server with its limits lifted (as the benches run it): the repository's epoll client in C for the
// stream (`--client native`, the ticks published by the load test itself), wrk for a closed loop; and the
// native stream session as the stream bench drives it (groups kept across steps, one paused).
import t, { type Test } from 'tap'
import { connect } from '@nats-io/transport-node'
import { randomUUID } from 'node:crypto'
import { join } from 'node:path'
import { artifactPath, launchChromium } from '../../test/support/browser.ts'
import { freePort, startNats } from '../../test/support/servers.ts'
import { edgeOnNats, startServiceProcess } from '../../test/support/service-process.ts'
import { buildLoadClient } from '../native-stream-client.ts'
import { NativeStreamSession } from '../native-stream-load.ts'
import { CHART_TITLES, renderedCharts } from './report-charts.ts'
import { failedRun, readResult, runLoadtest } from './run-bin.ts'

const nats = await startNats()
t.teardown(() => nats.dispose())
const [port, namespace] = [await freePort(), `engines${randomUUID().slice(0, 8)}`]
const edge = startServiceProcess(['edge'], {
  ...edgeOnNats(nats.url, namespace),
  PORT: String(port),
  RATE_LIMITS_ENABLED: 'false',
  STREAM_MAX_CONNECTIONS_PER_IP: '100',
  // the native client sends an Origin of its own
  STREAM_ALLOWED_ORIGINS: '*',
  // fan-out never conflates, even wider than edgeOnNats's slice: a busy machine stalled this edge for most of a
  // second at 16,600 ticks/s, and gaps are not what the engines' test is about (conflation has tests of its own)
  STREAM_FANOUT_SLICE_MS: '60000',
})
t.teardown(() => edge.stop())
await edge.waitForLog('edge listening', 90_000)
const target = `http://127.0.0.1:${port}`
const dir = t.testdir()
const browser = await launchChromium()
t.teardown(() => browser.close())

/** The report opens in Chromium with its three charts drawn (screenshot in test/artifacts/). */
const reportOpens = async (t: Test, out: string, name: string) => {
  const { errors, charts } = await renderedCharts(browser, `${out}.html`, artifactPath(`loadtest-${name}-report.png`))
  t.same(errors, [], 'the report: no script error')
  t.same(
    charts.map((chart) => ({ title: chart.title, drawn: chart.drawn })),
    CHART_TITLES.map((title) => ({ title, drawn: true })),
    'the report: three charts drawn',
  )
}

t.test('stream --client native: the C client holds the connections, the ticks it measures published by the load test', async (t) => {
  const out = join(dir, 'native')
  // every pair 10 times a second to 20 connections receiving all pairs
  const stdout = await runLoadtest([
    'stream',
    '--client',
    'native',
    '--target',
    target,
    '--publish',
    nats.url,
    '--namespace',
    namespace,
    '--owns-service',
    '--connections',
    '20',
    '--tick-rate',
    '830',
    '--warmup',
    '1',
    '--duration',
    '2',
    '--client-cpus',
    '1',
    '--out',
    out,
  ])
  t.match(
    stdout,
    /\[\s+1 s\] {2}offered 16,600\/s {2}msgs [\d,]+\/s {2}p50 [\d.]+ ms {2}p99 [\d.]+ ms {2}errors 0 {2}connections 20 {2}gaps 0 {2}server CPU % \d+ {2}server RSS MB \d+/,
  )
  const result = readResult(out)
  t.equal(result.mode, 'stream')
  t.equal(result.options.client, 'native')
  t.equal(result.series.length, 2, 'a point per second of the measured window')
  t.same(
    result.series.map((point) => point.offeredPerSecond),
    [16_600, 16_600],
  )
  const totals = result.totals as Record<string, number>
  t.match(totals, { connections: 20, failedConnections: 0, closes: 0, gaps: 0 })
  t.ok(totals.ticks! > 0, `ticks delivered (${totals.ticks})`)
  t.equal(result.latency.count, totals.ticks, 'a latency for every tick')
  t.equal(
    result.series.reduce((sum, point) => sum + point.deliveredPerSecond, 0),
    totals.ticks,
    'the seconds add up to the window',
  )
  t.match(result.latencyMeaning, /native client reading it \(exact\)/)
  t.same(
    result.latency.distribution.map((point) => point.percentile),
    [50, 99, 99.9, 100],
  )
  t.equal(result.loadClient.workers, 1, 'one client process')
  await reportOpens(t, out, 'native-stream')
})

t.test('the session the stream bench drives: two groups kept across steps, the second paused for the next', async (t) => {
  const nc = await connect({ servers: nats.url, name: 'engines-test-publisher' })
  t.teardown(() => nc.close())
  const session = await NativeStreamSession.open({ target, clientBinary: buildLoadClient(), groups: [6, 4], pairs: 'all', nc, namespace })
  t.teardown(() => session.close())
  const lines: string[] = []
  let windowEvents = 0
  const step = {
    ticksPerSecond: 166,
    warmupSeconds: 0,
    durationSeconds: 1,
    log: (line: string) => lines.push(line),
    measured: () => {
      windowEvents++
      return () => void windowEvents++
    },
  }
  const everyone = await session.run(step)
  t.match(everyone.totals, { connections: 10, failedConnections: 0, closes: 0, gaps: 0 })
  t.equal(everyone.series[0]!.offeredPerSecond, 1660, '166 ticks/s to 10 connections')
  t.equal(everyone.loadClient.workers, 2, 'two client processes')
  session.pause(1)
  const readers = await session.run(step)
  t.match(readers.totals, { connections: 6, failedConnections: 0, closes: 0 })
  t.equal(readers.series[0]!.offeredPerSecond, 996, 'the paused group not counted')
  t.equal(readers.loadClient.workers, 1, 'one client process reporting')
  t.match(readers.notes.join(' | '), /1 paused group\(s\) not reading and not counted/)
  t.equal(windowEvents, 4, 'each step opened and closed its measured window')
  t.equal(lines.length, 2, 'a progress line each second of each step')
})

t.test('stream --client native refuses a run that does not publish its own ticks or does not own the service', async (t) => {
  const failure = await failedRun(['stream', '--client', 'native', '--target', target, '--owns-service', '--duration', '1'])
  t.equal(failure?.code, 2)
  t.match(failure?.stderr, /--client native publishes its own ticks .* give --publish, --namespace and --owns-service/)
})

t.test('rest --closed-loop: wrk on one route, its count and latency percentiles in the result', async (t) => {
  const out = join(dir, 'closed')
  const stdout = await runLoadtest([
    'rest',
    '--closed-loop',
    '--owns-service',
    '--target',
    target,
    '--route',
    'GET /v1/status',
    '--header',
    'Accept-Encoding: gzip',
    '--connections',
    '4',
    '--duration',
    '2',
    '--out',
    out,
  ])
  t.match(stdout, /\[\s+1 s\] {2}responses \(estimated\) [\d,]+\/s {2}MB read [\d.]+ {2}client CPU \d+%/)
  const result = readResult(out)
  t.equal(result.mode, 'rest')
  t.equal(result.options.loop, 'closed (wrk)')
  t.same(result.options.headers, { 'Accept-Encoding': 'gzip' })
  const totals = result.totals as Record<string, number>
  t.match(totals, { statusErrors: 0, socketErrors: 0 })
  t.ok(totals.requests! > 0, `requests answered (${totals.requests})`)
  t.equal(result.latency.count, totals.requests)
  t.equal(result.series.length, 2)
  const seconds = result.series.reduce((sum, point) => sum + point.deliveredPerSecond, 0)
  t.ok(Math.abs(seconds - totals.requests!) <= 2, `the seconds add up to wrk's count, give or take rounding (${seconds})`)
  const { distribution } = result.latency
  t.same([distribution[0]!.percentile, distribution.at(-1)!.percentile], [0, 100])
  t.ok(
    distribution.every((point, index) => index === 0 || point.ms >= distribution[index - 1]!.ms),
    'percentiles rise',
  )
  await reportOpens(t, out, 'closed-loop')
})

t.test('rest --closed-loop refuses a service whose limits it would only run into', async (t) => {
  const failure = await failedRun(['rest', '--closed-loop', '--target', target, '--duration', '1'])
  t.equal(failure?.code, 2)
  t.match(failure?.stderr, /--closed-loop sends as fast as the service answers: only with --owns-service/)
})
