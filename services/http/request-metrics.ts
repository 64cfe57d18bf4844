import type { Metrics } from '../../kit/metrics.ts'

/** A route's request counter per status and its duration histogram, resolved once per route name. */
export class RouteMetrics {
  private readonly byStatus = new Map<number, { inc(): void }>()
  private readonly duration: { observe(seconds: number): void }

  constructor(
    private readonly metrics: Metrics,
    readonly routeName: string,
  ) {
    this.duration = metrics.httpDuration.labels(routeName)
  }

  /** Counts one answer, timed from `startedAt` (performance.now()). */
  count(status: number, startedAt: number): void {
    let counter = this.byStatus.get(status)
    if (!counter) {
      counter = this.metrics.httpRequests.labels(this.routeName, String(status))
      this.byStatus.set(status, counter)
    }
    counter.inc()
    this.duration.observe((performance.now() - startedAt) / 1000)
  }
}

/** One RouteMetrics per route name, shared by every route of that name. */
export function routeMetricsRegistry(metrics: Metrics): (routeName: string) => RouteMetrics {
  const byName = new Map<string, RouteMetrics>()
  return (routeName) => {
    let found = byName.get(routeName)
    if (!found) byName.set(routeName, (found = new RouteMetrics(metrics, routeName)))
    return found
  }
}
