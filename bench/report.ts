import { mkdirSync, writeFileSync } from 'node:fs'
import { cpus } from 'node:os'
import { fileURLToPath } from 'node:url'
import { loadAverage } from '../loadtest/cpu-meter.ts'

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

/** Writes a bench's figures as JSON under bench/results/, with the machine it ran on. */
export function writeResult(name: string, figures: unknown): string {
  mkdirSync(RESULTS, { recursive: true })
  const file = `${RESULTS}${name}-${new Date().toISOString().replace(/[:.]/g, '-')}.json`
  const machine = { cpus: cpus().length, cpuModel: cpus()[0]?.model, node: process.version }
  writeFileSync(file, JSON.stringify({ bench: name, at: new Date().toISOString(), machine, figures }, null, 2))
  return file
}

/** Prints the rows and writes them with the bench's arguments and the load average at its start and now. */
export function reportRows(name: string, args: unknown, rows: Array<Record<string, string | number>>, loadBefore: string): void {
  printTable(rows)
  console.log(`written ${writeResult(name, { args, rows, loadAverage: { before: loadBefore, after: loadAverage() } })}`)
}

export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]!
}
