// The run's result: JSON for machines, and an HTML timeline (faults, throughput, invariants, each part's health).
import { writeFileSync } from 'node:fs'
import type { Second } from './load.ts'

export interface FaultRecord {
  name: string
  startedAt: number
  endedAt: number
  notes: Record<string, unknown>
}
export interface InvariantResult {
  name: string
  fault: string
  ok: boolean
  detail: string
}
export interface HealthSample {
  at: number
  part: string
  healthy: boolean
  detail: string
}
export interface RunResult {
  startedAt: number
  endedAt: number
  faults: FaultRecord[]
  invariants: InvariantResult[]
  throughput: Array<{ second: number } & Second>
  health: HealthSample[]
  measured: Record<string, unknown>
}

export function writeReport(result: RunResult, jsonFile: string, htmlFile: string): void {
  writeFileSync(jsonFile, JSON.stringify(result, null, 2))
  writeFileSync(htmlFile, timelineHtml(result))
}

const escape = (text: string) => text.replace(/[&<>"]/g, (char) => `&#${char.charCodeAt(0)};`)

function timelineHtml(result: RunResult): string {
  const span = Math.max(1, result.endedAt - result.startedAt)
  const x = (time: number) => (((time - result.startedAt) / span) * 100).toFixed(2)
  const parts = [...new Set(result.health.map((sample) => sample.part))].sort()
  const maxTicks = Math.max(1, ...result.throughput.map((second) => second.ticks))
  const maxRest = Math.max(1, ...result.throughput.map((second) => second.restOk + second.restFailed))
  const seconds = Math.max(1, span / 1000)
  const bar = (second: number, value: number, max: number, color: string) =>
    `<rect x="${((second / seconds) * 100).toFixed(2)}%" width="${(100 / seconds).toFixed(3)}%" y="${(40 - (value / max) * 40).toFixed(1)}" height="${((value / max) * 40).toFixed(1)}" fill="${color}"/>`
  const healthRow = (part: string) => {
    const samples = result.health.filter((sample) => sample.part === part)
    const cells = samples.map((sample, index) => {
      const end = samples[index + 1]?.at ?? result.endedAt
      return `<rect x="${x(sample.at)}%" width="${Math.max(0.05, Number(x(end)) - Number(x(sample.at))).toFixed(2)}%" y="0" height="14" fill="${sample.healthy ? '#3a3' : '#c33'}"><title>${escape(sample.detail)}</title></rect>`
    })
    return `<tr><th>${escape(part)}</th><td><svg width="100%" height="14">${cells.join('')}</svg></td></tr>`
  }
  const faults = result.faults
    .map(
      (fault) =>
        `<rect x="${x(fault.startedAt)}%" width="${Math.max(0.2, Number(x(fault.endedAt)) - Number(x(fault.startedAt))).toFixed(2)}%" y="0" height="20" fill="#f90" opacity="0.6"><title>${escape(fault.name)}</title></rect><text x="${x(fault.startedAt)}%" y="34" font-size="10">${escape(fault.name)}</text>`,
    )
    .join('')
  const invariants = result.invariants
    .map(
      (invariant) =>
        `<tr class="${invariant.ok ? 'ok' : 'bad'}"><td>${invariant.ok ? 'held' : 'BROKEN'}</td><td>${escape(invariant.fault)}</td><td>${escape(invariant.name)}</td><td>${escape(invariant.detail)}</td></tr>`,
    )
    .join('')
  return `<!doctype html><html><head><meta charset="utf-8"><title>Cluster fault run</title>
<style>body{font:13px system-ui;margin:20px}table{border-collapse:collapse;width:100%}th{text-align:left;width:90px;font-weight:normal}td,th{padding:2px 4px}
tr.ok td:first-child{color:#070}tr.bad td:first-child{color:#c00;font-weight:bold}.inv td{border-bottom:1px solid #ddd}</style></head><body>
<h1>Cluster fault run</h1>
<p>${new Date(result.startedAt).toISOString()} to ${new Date(result.endedAt).toISOString()}: ${result.invariants.filter((invariant) => invariant.ok).length} invariants held, ${result.invariants.filter((invariant) => !invariant.ok).length} broken.</p>
<h2>Faults</h2><svg width="100%" height="40">${faults}</svg>
<h2>Throughput</h2>
<p>stream ticks received per second (max ${maxTicks})</p><svg width="100%" height="40">${result.throughput.map((second) => bar(second.second, second.ticks, maxTicks, '#36c')).join('')}</svg>
<p>REST answers per second: 200 (blue) and failed (red), max ${maxRest}</p><svg width="100%" height="40">${result.throughput.map((second) => bar(second.second, second.restOk, maxRest, '#36c') + bar(second.second, second.restFailed, maxRest, '#c33')).join('')}</svg>
<h2>Health of each part</h2><table>${parts.map(healthRow).join('')}</table>
<h2>Invariants</h2><table class="inv">${invariants}</table>
<h2>Measured</h2><pre>${escape(JSON.stringify(result.measured, null, 2))}</pre>
</body></html>`
}
