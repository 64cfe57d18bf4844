// CPU figures for benches on Linux: a process's CPU time from /proc/<pid>/stat and each core's busy
// share from /proc/stat, so every figure can be printed beside what the load client used.
import { readFileSync } from 'node:fs'

export const CLOCK_TICK_MS = 10

/**
 * The fields of /proc/<pid>/stat after the command name (field 3, the state, first): the name in
 * parentheses may hold spaces, the fields after it do not.
 */
export function procStatFields(pid: number): string[] {
  return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
}

/** User + system CPU milliseconds a process (all its threads) has used so far. */
export function processCpuMs(pid: number): number {
  const fields = procStatFields(pid)
  return (Number(fields[11]) + Number(fields[12])) * CLOCK_TICK_MS
}

/** The part of `processCpuMs` spent in the kernel (system time): a socket server's sends, for one. */
export function processSystemCpuMs(pid: number): number {
  return Number(procStatFields(pid)[12]) * CLOCK_TICK_MS
}

/** The memory a process holds (resident set size), in MB. */
export function processRssMb(pid: number): number {
  return Number(/^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024
}

interface CoreTimes {
  busy: number
  total: number
}

function coreTimes(): CoreTimes[] {
  return readFileSync('/proc/stat', 'utf8')
    .split('\n')
    .filter((line) => /^cpu\d+ /.test(line))
    .map((line) => {
      const [user, nice, system, idle, iowait, irq, softirq, steal] = line.split(/\s+/).slice(1, 9).map(Number)
      const busy = user! + nice! + system! + irq! + softirq! + steal!
      return { busy, total: busy + idle! + iowait! }
    })
}

/** Starts measuring; `stop()` gives each core's busy share (0..1) over the interval. */
export function coreMeter(): { stop(): number[] } {
  const before = coreTimes()
  return {
    stop: () =>
      coreTimes().map((after, core) => {
        const total = after.total - before[core]!.total
        return total > 0 ? (after.busy - before[core]!.busy) / total : 0
      }),
  }
}

/** Starts measuring a process; `stop()` gives its CPU share of one core (0..1) over the interval. */
export function processMeter(pid: number): { stop(): number } {
  const cpuBefore = processCpuMs(pid)
  const startedAt = performance.now()
  return { stop: () => (processCpuMs(pid) - cpuBefore) / (performance.now() - startedAt) }
}

export const loadAverage = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')
