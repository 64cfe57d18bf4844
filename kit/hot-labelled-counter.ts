import type { Registry } from 'prom-client'
import { registerScrapedMetric } from './scraped-metric.ts'

export interface HotLabelledCounterOptions<Name extends string> {
  name: string
  help: string
  labelNames: readonly Name[]
  registry: Registry
}

interface CounterValue {
  labels: Record<string, string>
  value: number
}

export interface HotCounterSeries {
  inc(value?: number): void
}

/**
 * A labelled Prometheus counter for a hot path (every tick, stream frame or HTTP response): an increment is one
 * addition to a plain number, read by the registry only when /metrics is scraped, so the count is exact at every
 * read. prom-client's own labelled `inc` builds a label object and hashes it on every call, a cost of its own in
 * each tick. The exposition is the same as prom-client's counter's, except that a series is exposed (at 0) from the
 * moment its caller asks for it, and a reset zeroes the series rather than dropping them, since callers hold them.
 */
export function hotLabelledCounter<Name extends string>(
  options: HotLabelledCounterOptions<Name>,
): { labels(...values: string[]): HotCounterSeries; get: () => Promise<{ values: CounterValue[] }> } {
  const { name, help, labelNames } = options
  const series = new Map<string, CounterValue>()

  const get = registerScrapedMetric(
    { name, help, type: 'counter', registry: options.registry },
    (): CounterValue[] => [...series.values()].map(({ labels, value }) => ({ labels, value })),
    () => {
      for (const one of series.values()) one.value = 0
    },
  )

  return {
    get,
    labels(...values) {
      if (values.length !== labelNames.length) throw new Error(`${name} takes labels ${labelNames.join(', ')}, got ${values.length} values`)
      const key = values.join('\u0000')
      let found = series.get(key)
      if (!found) {
        found = { labels: Object.fromEntries(labelNames.map((label, index) => [label, values[index]!])), value: 0 }
        series.set(key, found)
      }
      const own = found
      return {
        inc(value = 1) {
          own.value += value
        },
      }
    },
  }
}
