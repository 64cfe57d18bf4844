import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import type { LoadResult } from './load-result.ts'

// The HTML report: one self-contained file, charts drawn by uPlot (inlined from the npm package, no CDN).

const require = createRequire(import.meta.url)
const uplotFile = (name: string) => readFileSync(require.resolve(`uplot/dist/${name}`), 'utf8')

export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`)
/** JSON inside a <script>: `<` escaped so no string can close the element. */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c')

function table(title: string, rows: Array<[string, unknown]>): string {
  const cells = rows.map(
    ([name, value]) =>
      `<tr><th>${escapeHtml(name)}</th><td>${escapeHtml(typeof value === 'string' ? value : JSON.stringify(value))}</td></tr>`,
  )
  return `<h2>${escapeHtml(title)}</h2><table>${cells.join('')}</table>`
}

const CHARTS_SCRIPT = `
const result = JSON.parse(document.getElementById('result').textContent)
const seconds = result.series.map((point) => point.second)
const width = Math.min(1000, document.body.clientWidth - 40)
const axes = (x, y) => [{ label: x }, { label: y }]
new uPlot({
  title: 'Latency percentiles over time (' + result.latencyUnit + ')', width, height: 320,
  scales: { x: { time: false } }, axes: axes('second', 'ms'),
  series: [{}, { label: 'p50', stroke: '#1b9e77' }, { label: 'p90', stroke: '#7570b3' }, { label: 'p99', stroke: '#d95f02' }, { label: 'max', stroke: '#999', dash: [4, 4] }],
}, [seconds, ...['p50Ms', 'p90Ms', 'p99Ms', 'maxMs'].map((key) => result.series.map((point) => point.latency?.[key] ?? null))], document.getElementById('latency-over-time'))
const offered = result.series.map((point) => point.offeredPerSecond ?? null)
new uPlot({
  title: 'Throughput against offered rate (per second)', width, height: 320,
  scales: { x: { time: false } }, axes: axes('second', result.unit + '/s'),
  series: [{}, { label: 'offered', stroke: '#999', dash: [6, 4] }, { label: 'delivered', stroke: '#1f78b4', width: 2 }, { label: 'errors', stroke: '#e31a1c' }],
}, [seconds, offered, result.series.map((point) => point.deliveredPerSecond), result.series.map((point) => point.errors ?? null)], document.getElementById('throughput'))
const points = result.latency.distribution.filter((point) => point.percentile < 100)
// x is 100 / (100 - percentile), so that each further nine takes the same width
const xs = points.map((point) => 100 / (100 - point.percentile))
new uPlot({
  title: 'Latency distribution (whole run)', width, height: 320,
  scales: { x: { time: false, distr: 3 } },
  // ticks at 0%, 90%, 99%, 99.9%, ... (powers of ten: a log axis labels no others) within the data
  axes: [{ label: 'percentile', splits: () => [1, 10, 100, 1e3, 1e4, 1e5].filter((x) => x >= xs[0] && x <= xs[xs.length - 1]),
    values: (u, ticks) => ticks.map((tick) => (100 - 100 / tick).toPrecision(6).replace(/\\.?0+$/, '') + '%') }, { label: 'ms' }],
  series: [{ label: 'percentile' }, { label: 'latency', stroke: '#d95f02', width: 2, points: { show: true } }],
}, [xs, points.map((point) => point.ms)], document.getElementById('distribution'))
document.body.dataset.charts = 'drawn'
`

/** The report as one HTML document. */
export function renderHtmlReport(result: LoadResult): string {
  const unit = { stream: 'msgs', rest: 'requests', onboard: 'answers' }[result.mode]
  const data = { ...result, unit, latencyUnit: 'ms' }
  const summary: Array<[string, unknown]> = [
    ['target', result.target],
    ['started', result.startedAt],
    ['duration', `${result.durationSeconds} s`],
    ['latency', result.latencyMeaning],
    [
      'p50 / p90 / p99 / p99.9 / max ms',
      [result.latency.p50Ms, result.latency.p90Ms ?? '–', result.latency.p99Ms, result.latency.p999Ms, result.latency.maxMs].join(' / '),
    ],
    ['latency samples', String(result.latency.count)],
    [
      'load client',
      `${result.loadClient.workers} ${result.loadClient.kind ?? 'worker thread(s)'}, ${result.loadClient.cpuPercentOfCores}% of ${result.loadClient.cores} core(s)`,
    ],
  ]
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Load test: ${escapeHtml(result.mode)} against ${escapeHtml(result.target)}</title>
<style>${uplotFile('uPlot.min.css')}
body { font: 14px system-ui, sans-serif; margin: 20px; } table { border-collapse: collapse; margin-bottom: 16px; }
th, td { text-align: left; padding: 2px 10px; border-bottom: 1px solid #ddd; vertical-align: top; } .chart { margin: 16px 0; }</style>
</head><body>
<h1>Load test: ${escapeHtml(result.mode)}</h1>
${table('Summary', summary)}
<div class="chart" id="latency-over-time"></div>
<div class="chart" id="throughput"></div>
<div class="chart" id="distribution"></div>
${table('Totals', Object.entries(result.totals))}
${table(
  'Options',
  Object.entries(result.options).filter(([, value]) => value !== undefined),
)}
${result.notes.length ? `<h2>Notes</h2><ul>${result.notes.map((note) => `<li>${escapeHtml(note)}</li>`).join('')}</ul>` : ''}
<script id="result" type="application/json">${scriptJson(data)}</script>
<script>${uplotFile('uPlot.iife.min.js')}</script>
<script>${CHARTS_SCRIPT}</script>
</body></html>
`
}
