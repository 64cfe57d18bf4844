// The load test run as a user runs it (the package bin, in its own process) against a service started
// separately, then its HTML report opened in headless Chromium.
import t from 'tap'
import { join } from 'node:path'
import { launchChromium } from '../../test/support/browser.ts'
import { CHART_TITLES, renderedCharts } from './report-charts.ts'
import { failedRun, readResult, runLoadtest as loadtest, startTargetService } from './run-bin.ts'

const { port, target } = await startTargetService(t)

const dir = t.testdir()

t.test('stream: connections ramped within the per-IP budget over two source addresses, ticks received', async (t) => {
  const out = join(dir, 'stream')
  const stdout = await loadtest([
    'stream',
    // the stream's own form of the target: the service's clock is still read over HTTP
    '--target',
    `ws://127.0.0.1:${port}`,
    '--connections',
    '24',
    '--source-ips',
    '2',
    '--ramp',
    '100',
    '--duration',
    '3',
    '--out',
    out,
  ])
  t.match(stdout, /\[\s+1 s\] {2}msgs [\d,]+\/s {2}p50 [\d.]+ ms/, 'a progress line every second')
  const result = readResult(out)
  t.equal(result.mode, 'stream')
  t.equal(result.series.length, 3)
  t.equal(result.options.rampPerSecond, 2, 'two addresses: 2 upgrades a second within 60 per minute each')
  const upgrades = result.totals.upgrades as number
  t.ok(upgrades > 0 && upgrades <= 6, `opened at that rate at most (${upgrades} in 3 s)`)
  t.same(result.totals.refused, {}, 'no upgrade refused')
  t.same(result.totals.closes, {}, 'no connection closed')
  t.ok((result.totals.ticks as number) > 0, 'ticks arrived')
  t.equal(result.totals.unexplained, 0, 'no seq jump without a gap')
  t.match(result.latencyMeaning, /timestampSeconds/)
})

t.test('stream: more connections than the per-IP ceiling allows is refused before it starts', async (t) => {
  const failure = await failedRun(['stream', '--target', target, '--connections', '21', '--duration', '1'])
  t.equal(failure?.code, 1)
  t.match(failure?.stderr, /exceed the service's 20 per IP over 1 source address/)
})

t.test('rest: a ws:// target is refused with the usage, before any load', async (t) => {
  const failure = await failedRun(['rest', '--target', `ws://127.0.0.1:${port}`, '--duration', '1'])
  t.equal(failure?.code, 2)
  t.match(failure?.stderr, /^usage: npm run loadtest -- <stream\|rest\|onboard>/)
  t.match(failure?.stderr, /\nerror: --target is a URL starting http:\/\/, https:\/\/, not "ws:\/\/127\.0\.0\.1:\d+"\n$/)
})

t.test('rest: open loop at a fixed rate, a spent budget honoured, then the report opens in Chromium', async (t) => {
  const out = join(dir, 'rest')
  // market hours have 60 per 10 s (a budget the stream runs did not touch): at 40/s for 5 s the schedule finds it
  // spent after 1.5 s, and goes on 3.5 s more, time enough for the first 429 to come back on a busy machine (with
  // 1.5 s more, one run on a saturated two-core machine had sent the whole schedule before it saw one)
  const route = 'GET /v1/market-hours?pair=BTC-USD'
  const stdout = await loadtest(['rest', '--target', target, '--rate', '40', '--duration', '5', '--route', route, '--out', out])
  t.match(stdout, /offered [\d,]+\/s {2}responses [\d,]+\/s/)
  const result = readResult(out)
  const totals = result.totals as {
    offered: number
    sent: number
    completed: number
    deferred: number
    statusesByRoute: Record<string, Record<string, number>>
  }
  t.equal(totals.offered, 200, 'every request of the schedule offered')
  t.equal(totals.completed, totals.sent, 'every request sent was answered')
  const statuses = totals.statusesByRoute[route]!
  t.equal(statuses['200'], 60, 'the budget used up')
  t.equal(totals.deferred, totals.offered - totals.sent, 'the rest deferred, not sent')
  // how many were already in flight when the spent budget was seen depends on the machine's latency
  t.ok(totals.deferred > 0, 'once the spent budget was seen, requests deferred')
  t.equal((statuses['429'] ?? 0) + totals.deferred, 140, 'the remainder refused while in flight, or deferred')

  const browser = await launchChromium()
  t.teardown(() => browser.close())
  const { errors, charts } = await renderedCharts(browser, `${out}.html`)
  t.same(errors, [], 'no script error')
  t.same(
    charts.map((chart) => chart.title),
    CHART_TITLES,
  )
  t.ok(
    charts.every((chart) => chart.width > 300 && chart.drawn),
    'each chart has a canvas with lines drawn on it',
  )
})
