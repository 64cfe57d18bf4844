/**
 * Counts on a hot path (every tick) in a plain number and hands the total to a prom-client counter once
 * a second: a labelled prom-client increment per tick costs more than the rest of the tick's bookkeeping.
 * /metrics may lag by up to `flushMs`.
 */
export function hotCounter(counter: { inc(value: number): void }, flushMs = 1000) {
  let pending = 0
  const flush = () => {
    if (pending === 0) return
    counter.inc(pending)
    pending = 0
  }
  const timer = setInterval(flush, flushMs)
  timer.unref()
  return {
    inc() {
      pending++
    },
    /** flushes and stops the timer */
    stop() {
      clearInterval(timer)
      flush()
    },
  }
}
