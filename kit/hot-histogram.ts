import type { Registry } from 'prom-client'
import { registerScrapedMetric, type ScrapedSample } from './scraped-metric.ts'

export interface HotHistogramOptions {
  name: string
  help: string
  /** the one label a series is kept by (e.g. the route) */
  labelName: string
  /** upper bounds, ascending */
  buckets: readonly number[]
  registry: Registry
}

export interface HotHistogramSeries {
  observe(value: number): void
}

/**
 * A Prometheus histogram for a hot path (every HTTP request): an observation is a bucket search and
 * three additions in plain arrays, read by the registry only when /metrics is scraped. prom-client's own
 * labelled `observe` builds a label object and hashes it on every call, which costs more than the rest of
 * a precomputed answer's bookkeeping. The exposition is the same as prom-client's histogram:
 * `<name>_bucket{le}` cumulative, `<name>_sum`, `<name>_count`.
 */
export function hotHistogram(options: HotHistogramOptions): { labels(value: string): HotHistogramSeries } {
  const { name, labelName, buckets } = options
  const series = new Map<string, { counts: Float64Array; sum: number; count: number }>()

  registerScrapedMetric(
    { name, help: options.help, type: 'histogram', registry: options.registry },
    () => {
      const values: ScrapedSample[] = []
      for (const [label, { counts, sum, count }] of series) {
        let cumulative = 0
        buckets.forEach((bound, index) => {
          cumulative += counts[index]!
          values.push({ metricName: `${name}_bucket`, labels: { le: bound, [labelName]: label }, value: cumulative })
        })
        values.push({ metricName: `${name}_bucket`, labels: { le: '+Inf', [labelName]: label }, value: count })
        values.push({ metricName: `${name}_sum`, labels: { [labelName]: label }, value: sum })
        values.push({ metricName: `${name}_count`, labels: { [labelName]: label }, value: count })
      }
      return values
    },
    () => series.clear(),
  )

  return {
    labels(label) {
      let found = series.get(label)
      if (!found) series.set(label, (found = { counts: new Float64Array(buckets.length), sum: 0, count: 0 }))
      const own = found
      return {
        observe(value) {
          own.sum += value
          own.count++
          for (let index = 0; index < buckets.length; index++) {
            if (value <= buckets[index]!) {
              own.counts[index]!++
              return
            }
          }
        },
      }
    },
  }
}
