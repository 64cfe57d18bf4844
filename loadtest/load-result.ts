import type { Histogram } from 'hdr-histogram-js'
import { distribution, summarize, type LatencySummary } from './latency.ts'

/** One second of a run. */
export interface SecondFigures {
  /** seconds since the start */
  second: number
  /** what the load test offered this second (requests sent, or ticks it expects delivered); absent when unknown */
  offeredPerSecond?: number
  /** what came back (responses, or tick frames received) */
  deliveredPerSecond: number
  /** absent when the engine cannot tell while it runs (wrk counts errors once, at the end) */
  errors?: number
  /** absent when the engine cannot tell while it runs (wrk reports latency once, at the end) */
  latency?: LatencySummary
  /** further figures of the mode, e.g. open connections, gaps */
  extra: Record<string, number>
}

export interface LoadResult {
  mode: 'stream' | 'rest' | 'onboard'
  target: string
  startedAt: string
  durationSeconds: number
  options: Record<string, unknown>
  /** what the latency is: how it was measured */
  latencyMeaning: string
  series: SecondFigures[]
  latency: LatencySummary & { distribution: Array<{ percentile: number; ms: number }> }
  /** the mode's totals, e.g. status counts per route or close codes */
  totals: Record<string, unknown>
  /** the load test's own CPU: a figure measured with the client near 100% of its cores is the client's */
  loadClient: {
    workers: number
    /** what `workers` counts: worker threads unless said (native client processes, wrk threads) */
    kind?: string
    cores: number
    cpuPercentOfCores: number
  }
  notes: string[]
}

/** Called as the measured window opens; what it returns, as it closes (a bench samples its servers' CPU). */
export type MeasuredWindow = () => () => void

export function latencyTotals(histogram: Histogram): LoadResult['latency'] {
  return { ...summarize(histogram), distribution: distribution(histogram) }
}

const ownCpuMs = () => {
  const usage = process.cpuUsage()
  return (usage.user + usage.system) / 1000
}

/**
 * CPU time as a share of `cores` over the time since this call: this process's (every thread) by default,
 * or what `cpuMs` counts (e.g. the load client's processes).
 */
export function cpuShare(cores: number, cpuMs: () => number = ownCpuMs) {
  let [wallAt, cpuAt] = [performance.now(), cpuMs()]
  const first = { wallAt, cpuAt }
  return {
    /** since the previous call */
    sinceLast(): number {
      const [wall, cpu] = [performance.now(), cpuMs()]
      const share = (cpu - cpuAt) / (wall - wallAt) / cores
      ;[wallAt, cpuAt] = [wall, cpu]
      return Math.round(share * 100)
    },
    /** since the start */
    overall(): number {
      return Math.round(((cpuMs() - first.cpuAt) / (performance.now() - first.wallAt) / cores) * 100)
    },
  }
}

const format = (value: number) => value.toLocaleString('en-US', { maximumFractionDigits: value < 10 ? 2 : 1 })

/** The line printed every second. */
export function progressLine(figures: SecondFigures, cpuPercent: number, unit: string): string {
  const parts = [
    `[${String(figures.second).padStart(4)} s]`,
    ...(figures.offeredPerSecond !== undefined ? [`offered ${format(figures.offeredPerSecond)}/s`] : []),
    `${unit} ${format(figures.deliveredPerSecond)}/s`,
    ...(figures.latency ? [`p50 ${format(figures.latency.p50Ms)} ms`, `p99 ${format(figures.latency.p99Ms)} ms`] : []),
    ...(figures.errors === undefined ? [] : [`errors ${figures.errors}`]),
    ...Object.entries(figures.extra).map(([name, value]) => `${name} ${format(value)}`),
    `client CPU ${cpuPercent}%`,
  ]
  return parts.join('  ')
}
