// The background side of upstream history: at start, each resolution's configured lookback is filled
// (coarse resolutions first: few calls, whole charts); then, every few seconds, minutes of the `1`
// lookback that passed without a candle of ours while the market was open (an ingest outage, a restart)
// are repaired from the source. Both spend at most half the call budget and never hold up a price.

import type { Logger } from '../../../kit/logger.ts'
import { throttledWarning } from '../../../kit/throttled-warning.ts'
import { OHLC_RESOLUTIONS, type OhlcResolution } from '../../../schemas/ohlc.ts'
import type { Pair } from '../../../schemas/pairs.ts'
import { periodStart } from '../candle.ts'
import { RESOLUTION_SECONDS } from '../resolutions.ts'
import { HistoryBudgetSpent } from './call-budget.ts'
import type { UpstreamHistory } from './upstream-history.ts'

export interface HistoryBackfillOptions {
  upstream: UpstreamHistory
  /** the pairs to fill: those the source has */
  pairs: readonly Pair[]
  /** seconds filled at start per resolution; the `1` entry is also the repair window */
  backfillSeconds: Partial<Record<OhlcResolution, number>>
  /** how long one pair's fill may take (its calls, and waiting for another replica's) */
  timeoutMs: number
  /** how often missed minutes are looked for (default 10 s) */
  repairEveryMs?: number
  /** resolves when the backfill may start: once prices are served */
  after?: Promise<void>
  logger: Logger
  /** ms since the epoch; default Date.now */
  now?: () => number
}

export interface HistoryBackfill {
  /** looks for missed minutes now (the timer does it every `repairEveryMs`) and resolves when done */
  repairNow(): Promise<void>
  /** resolves once the start's backfill has gone through every pair and resolution */
  readonly backfilled: Promise<void>
  stop(): Promise<void>
}

/** Coarse first: one call fills a month of hours; minutes last, and then again and again as repair. */
const BACKFILL_ORDER = [...OHLC_RESOLUTIONS].reverse()

export function startHistoryBackfill(options: HistoryBackfillOptions): HistoryBackfill {
  const { upstream, pairs, backfillSeconds, timeoutMs } = options
  const now = options.now ?? Date.now
  const log = options.logger.child({ module: 'history-backfill' })
  const warn = throttledWarning(log, 'history backfill or repair failed; tried again later', 60_000)
  const stopping = new AbortController()
  let repairing: Promise<void> | undefined

  /** One pair and resolution back `seconds` from now; a spent budget waits for its window, other failures are left for later. */
  const fill = async (pair: Pair, resolution: OhlcResolution, seconds: number): Promise<void> => {
    const width = RESOLUTION_SECONDS[resolution]
    const nowSeconds = now() / 1000
    for (;;) {
      if (stopping.signal.aborted) return
      try {
        await upstream.prepare(
          pair,
          resolution,
          { from: periodStart(nowSeconds - seconds, width), to: Math.ceil(nowSeconds), maxPeriods: Number.POSITIVE_INFINITY },
          { priority: 'background', signal: AbortSignal.any([stopping.signal, AbortSignal.timeout(timeoutMs)]) },
        )
        return
      } catch (error) {
        if (stopping.signal.aborted) return
        if (!(error instanceof HistoryBudgetSpent)) return warn(`${resolution}`, { err: error, pair: pair.symbol, resolution })
        await sleep(error.retryAfterSeconds * 1000, stopping.signal)
      }
    }
  }

  const repairNow = () =>
    (repairing ??= (async () => {
      const window = backfillSeconds['1']
      if (window === undefined) return
      for (const pair of pairs) await fill(pair, '1', window)
    })().finally(() => (repairing = undefined)))

  const backfilled = (async () => {
    await options.after?.catch(() => stopping.abort())
    const started = Date.now()
    for (const resolution of BACKFILL_ORDER) {
      const seconds = backfillSeconds[resolution]
      if (seconds === undefined || resolution === '1') continue
      for (const pair of pairs) await fill(pair, resolution, seconds)
    }
    await repairNow()
    if (!stopping.signal.aborted) log.info({ pairs: pairs.length, ms: Date.now() - started }, 'history backfill done')
  })()

  // repairs run every repairEveryMs once the start's backfill (which ends with one) is done
  let timer: NodeJS.Timeout | undefined
  void backfilled.finally(() => {
    if (stopping.signal.aborted) return
    timer = setInterval(() => {
      if (!repairing) void repairNow()
    }, options.repairEveryMs ?? 10_000)
  })

  return {
    repairNow,
    backfilled,
    async stop() {
      clearInterval(timer)
      stopping.abort()
      await Promise.allSettled([backfilled, repairing])
    },
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms)
    signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true })
  })
}
