// The processes a command started, read from /proc on Linux: who they are and what memory each holds.
import { readdirSync, readFileSync } from 'node:fs'
import { CLOCK_TICK_MS, processRssMb, procStatFields } from '../loadtest/cpu-meter.ts'

export interface ProcessInfo {
  pid: number
  /** the command line, arguments joined by spaces */
  command: string
  /** resident set size in MB */
  rssMb: number
}

function parentOf(pid: number): number | undefined {
  try {
    return Number(procStatFields(pid)[1])
  } catch {
    return undefined
  }
}

function describe(pid: number): ProcessInfo | undefined {
  try {
    const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ')
    return { pid, command, rssMb: processRssMb(pid) }
  } catch {
    return undefined // it has just exited
  }
}

/** `root` and every process below it (children, grandchildren, ...), in pid order. */
export function processTree(root: number): ProcessInfo[] {
  const children = new Map<number, number[]>()
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry)
    if (!Number.isInteger(pid)) continue
    const parent = parentOf(pid)
    if (parent !== undefined) children.set(parent, [...(children.get(parent) ?? []), pid])
  }
  const pids: number[] = []
  const visit = (pid: number) => {
    pids.push(pid)
    for (const child of children.get(pid) ?? []) visit(child)
  }
  visit(root)
  return pids
    .sort((a, b) => a - b)
    .map(describe)
    .filter((info) => info !== undefined)
}

/** How long ago `pid` started, in ms (to the clock tick, 10 ms): its start time against the system's uptime. */
export function processAgeMs(pid: number): number {
  const uptimeMs = Number(readFileSync('/proc/uptime', 'utf8').split(' ')[0]) * 1000
  return uptimeMs - Number(procStatFields(pid)[19]) * CLOCK_TICK_MS
}
