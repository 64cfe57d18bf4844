import { build, decodeFromCompressedBase64, encodeIntoCompressedBase64, type Histogram } from 'hdr-histogram-js'

// Latencies are recorded in microseconds in HDR histograms (3 significant digits, up to two minutes); workers
// send theirs compressed, and they are added up in the main thread.

export const latencyHistogram = (): Histogram =>
  build({ lowestDiscernibleValue: 1, highestTrackableValue: 120_000_000, numberOfSignificantValueDigits: 3 })

export const encodeHistogram = (histogram: Histogram): string => encodeIntoCompressedBase64(histogram)

/** Adds the compressed histograms to `into`. */
export function addHistograms(into: Histogram, encoded: Iterable<string>): Histogram {
  for (const text of encoded) into.add(decodeFromCompressedBase64(text))
  return into
}

export interface LatencySummary {
  count: number
  p50Ms: number
  /** absent when the engine does not measure it (the native stream client reports p50, p99 and p99.9) */
  p90Ms?: number
  p99Ms: number
  p999Ms: number
  maxMs: number
}

const ms = (microseconds: number) => Math.round(microseconds) / 1000

export function summarize(histogram: Histogram): LatencySummary {
  const at = (percentile: number) => (histogram.totalCount === 0 ? 0 : ms(histogram.getValueAtPercentile(percentile)))
  return {
    count: histogram.totalCount,
    p50Ms: at(50),
    p90Ms: at(90),
    p99Ms: at(99),
    p999Ms: at(99.9),
    maxMs: histogram.totalCount === 0 ? 0 : ms(histogram.maxValue),
  }
}

export const DISTRIBUTION_PERCENTILES = [0, 10, 25, 50, 75, 90, 95, 99, 99.5, 99.9, 99.95, 99.99, 99.999]

/** Latency at percentiles from 0 to 99.999 (and the maximum), for the distribution chart. */
export function distribution(histogram: Histogram): Array<{ percentile: number; ms: number }> {
  if (histogram.totalCount === 0) return []
  const points = DISTRIBUTION_PERCENTILES.map((percentile) => ({ percentile, ms: ms(histogram.getValueAtPercentile(percentile)) }))
  return [...points, { percentile: 100, ms: ms(histogram.maxValue) }]
}
