import { mkdirSync, writeFileSync } from 'node:fs'
import { cpus } from 'node:os'
import { fileURLToPath } from 'node:url'
import { loadAverage } from '../loadtest/cpu-meter.ts'
import { escapeHtml } from '../loadtest/html-report.ts'

const RESULTS = fileURLToPath(new URL('./results/', import.meta.url))

/** Prints rows as an aligned table. */
export function printTable(rows: Array<Record<string, string | number>>): void {
  if (rows.length === 0) return
  const columns = Object.keys(rows[0]!)
  const text = (value: string | number) => (typeof value === 'number' ? formatNumber(value) : value)
  const widths = columns.map((column) => Math.max(column.length, ...rows.map((row) => text(row[column] ?? '').length)))
  const line = (cells: string[]) => cells.map((cell, index) => cell.padStart(widths[index]!)).join('  ')
  console.log(line(columns))
  for (const row of rows) console.log(line(columns.map((column) => text(row[column] ?? ''))))
}

function formatNumber(value: number): string {
  if (Number.isInteger(value)) return value.toLocaleString('en-US')
  return value.toFixed(Math.abs(value) < 10 ? 2 : 1)
}

/**
 * Writes a bench's figures as JSON under bench/results/, with the machine it ran on; with `table`, its rows
 * also as an HTML page beside it (same name, .html). Returns the JSON file.
 */
export function writeResult(
  name: string,
  figures: unknown,
  table?: { title: string; rows: Array<Record<string, string | number>> },
): string {
  mkdirSync(RESULTS, { recursive: true })
  const base = `${RESULTS}${name}-${new Date().toISOString().replace(/[:.]/g, '-')}`
  const at = new Date().toISOString()
  const machine = { cpus: cpus().length, cpuModel: cpus()[0]?.model, node: process.version }
  writeFileSync(`${base}.json`, JSON.stringify({ bench: name, at, machine, figures }, null, 2))
  if (table)
    writeFileSync(
      `${base}.html`,
      htmlTable(table.title, `${at}, ${machine.cpus} × ${machine.cpuModel}, node ${machine.node}`, table.rows, figures),
    )
  return `${base}.json`
}

/** Writes a bench's figures with the load average at its start and now; prints that load and the file written. */
export function writeFiguresWithLoad(name: string, figures: Record<string, unknown>, loadBefore: string): void {
  const loadAfter = loadAverage()
  console.log(`load average before ${loadBefore}, after ${loadAfter}`)
  console.log(`written ${writeResult(name, { ...figures, loadAverage: { before: loadBefore, after: loadAfter } })}`)
}

/** One self-contained page: the rows as a table, then every figure as JSON. */
function htmlTable(title: string, subtitle: string, rows: Array<Record<string, string | number>>, figures: unknown): string {
  const columns = [...new Set(rows.flatMap((row) => Object.keys(row)))]
  const cell = (value: string | number | undefined) =>
    escapeHtml(value === undefined ? '' : typeof value === 'number' ? formatNumber(value) : value)
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<style>body { font: 14px system-ui, sans-serif; margin: 20px; } table { border-collapse: collapse; margin-bottom: 16px; }
th, td { padding: 2px 10px; border-bottom: 1px solid #ddd; text-align: right; } th { text-align: center; }</style>
</head><body>
<h1>${escapeHtml(title)}</h1>
<p>${escapeHtml(subtitle)}</p>
<table><tr>${columns.map((column) => `<th>${escapeHtml(column)}</th>`).join('')}</tr>
${rows.map((row) => `<tr>${columns.map((column) => `<td>${cell(row[column])}</td>`).join('')}</tr>`).join('\n')}
</table>
<h2>Figures</h2>
<pre>${escapeHtml(JSON.stringify(figures, null, 2))}</pre>
</body></html>
`
}

/**
 * Prints the rows and writes them with the bench's arguments and the load average at its start and now; with
 * `title`, also as an HTML table.
 */
export function reportRows(
  name: string,
  args: unknown,
  rows: Array<Record<string, string | number>>,
  loadBefore: string,
  title?: string,
): void {
  printTable(rows)
  const figures = { args, rows, loadAverage: { before: loadBefore, after: loadAverage() } }
  const written = writeResult(name, figures, title === undefined ? undefined : { title, rows })
  console.log(`written ${written}${title === undefined ? '' : ' and its .html'}`)
}

export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]!
}
