// The operators' files: the alert rules pass promtool's check and unit tests, every metric the dashboard and
// the rules name exists on /metrics of a running service, and every alert has its runbook entry.
import t from 'tap'
import { execFile } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { startMarketDataService } from '../../test/support/service-process.ts'

const file = (path: string) => fileURLToPath(new URL(`../${path}`, import.meta.url))
const RULES = file('prometheus/alert-rules.yml')
const DASHBOARD = file('grafana/venue-gateway-dashboard.json')
const RUNBOOK = fileURLToPath(new URL('../../docs/operations.md', import.meta.url))
const promtool = (...args: string[]) => promisify(execFile)('promtool', args, { cwd: file('prometheus') })

const rulesText = readFileSync(RULES, 'utf8')
const dashboard = JSON.parse(readFileSync(DASHBOARD, 'utf8')) as {
  panels: Array<{ type: string; title: string; targets?: Array<{ expr: string }> }>
}
const dashboardExprs = dashboard.panels.flatMap((panel) => panel.targets?.map((target) => target.expr) ?? [])
const alertNames = [...rulesText.matchAll(/- alert: (\w+)/g)].map((match) => match[1]!)
const METRIC = /\b(?:venue|process|nodejs)_[a-z0-9_]+\b/g

t.test('promtool checks the rules and their unit tests pass', async (t) => {
  const checked = await promtool('check', 'rules', RULES)
  t.match(checked.stdout, `SUCCESS: ${alertNames.length} rules found`)
  const tested = await promtool('test', 'rules', 'alert-rules.test.yml')
  t.match(tested.stdout, /SUCCESS/)
  t.same(alertNames, [
    'VenueFeedDegraded',
    'VenueHigh5xxRatio',
    'VenueStreamLaggingConnections',
    'VenueIndexerDown',
    'VenueRelayFailures',
    'VenueOnboardingQueueDepth',
    'VenueSponsorshipPartnerCeiling',
    'VenueSponsorshipDailyGasCeiling',
    'VenueSponsorshipOperationGasCeiling',
    'VenueSponsorshipAlreadyApplied',
    'VenueHistorySourceFailing',
  ])
})

t.test('every alert has a runbook section in docs/operations.md', async (t) => {
  const runbook = readFileSync(RUNBOOK, 'utf8')
  for (const name of alertNames) {
    t.ok(runbook.includes(`\n### ${name}\n`), `runbook for ${name}`)
    t.ok(rulesText.includes(`runbook: 'docs/operations.md#${name.toLowerCase()}'`), `${name} links to it`)
  }
})

t.test('every metric the dashboard and the rules name exists on /metrics of a running service', async (t) => {
  const { service } = await startMarketDataService(t)
  const ops = await service.waitForLog('ops endpoints listening')
  const exposition = await (await fetch(`http://127.0.0.1:${Number(ops.port)}/metrics`)).text()
  const exposed = new Set<string>()
  for (const [, name, type] of exposition.matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
    exposed.add(name!)
    if (type === 'histogram') for (const suffix of ['_bucket', '_sum', '_count']) exposed.add(name + suffix)
    if (type === 'summary') for (const suffix of ['_sum', '_count']) exposed.add(name + suffix)
  }
  const named = new Set([...dashboardExprs.join('\n').matchAll(METRIC), ...rulesText.matchAll(METRIC)].map((match) => match[0]))
  t.ok(named.size > 20, `${named.size} metrics named`)
  t.same(
    [...named].filter((name) => !exposed.has(name)),
    [],
    'none missing',
  )
  t.ok(
    dashboard.panels.filter((panel) => panel.type !== 'row').every((panel) => (panel.targets?.length ?? 0) > 0),
    'every panel queries something',
  )
})
