/** The shape prom-client's metrics share, as far as tests read them. */
interface ReadableMetric {
  get(): Promise<{ values: Array<{ value: number; labels: Partial<Record<string, string | number>> }> }>
}

/** A metric's current value for the series with these labels; 0 before it has one. */
export async function metricValue(metric: ReadableMetric, labels: Record<string, string> = {}): Promise<number> {
  const { values } = await metric.get()
  const series = values.find((value) => Object.entries(labels).every(([name, label]) => value.labels[name] === label))
  return series?.value ?? 0
}
