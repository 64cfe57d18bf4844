import type { Metric, Registry } from 'prom-client'

/** One sample of a metric, as prom-client's registry reads it at scrape time. */
export interface ScrapedSample {
  /** for a histogram's `_bucket`, `_sum` and `_count` lines; the metric's name when absent */
  metricName?: string
  labels: Record<string, string | number>
  value: number
}

export interface ScrapedMetricOptions {
  name: string
  help: string
  type: 'counter' | 'histogram'
  registry: Registry
}

/**
 * Registers a metric whose owner keeps it in plain numbers on a hot path, read by prom-client's registry only when
 * /metrics is scraped: `samples` gives its lines then, and `reset` runs with the registry's `resetMetrics`.
 * Returns the read the registry makes, for callers that read the metric themselves.
 */
export function registerScrapedMetric<Sample extends ScrapedSample>(
  options: ScrapedMetricOptions,
  samples: () => Sample[],
  reset: () => void,
): () => Promise<{ values: Sample[] }> {
  const { name, help, type } = options
  const get = () => Promise.resolve({ name, help, type, aggregator: 'sum', values: samples() })
  // prom-client's registry takes any object with these members; its Metric type asks for a class's private fields
  options.registry.registerMetric({ name, help, type, aggregator: 'sum', get, reset } as unknown as Metric)
  return get
}
