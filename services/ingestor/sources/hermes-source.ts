// Upstream prices from Pyth's Hermes server: one server-sent-events stream
// (GET <base>/v2/updates/price/stream?ids[]=...) carrying every subscribed feed, one event per Pythnet slot.
//
// Before the first stream, the configured ids are checked against Hermes's feed list; unknown ones are
// reported (log, metric, readiness) and left out. Each event repeats every feed, changed or not: only
// quotes that change their feed's row go on. Hermes ends a stream after 24 hours or when the client lags,
// and any request can be refused: 401/403 (the key) waits long and says so once a minute, 429 waits the
// limit out, a 404 naming ids drops those ids. After any end the source reconnects with exponential
// backoff and jitter; the backoff starts over only once a connection has delivered prices for a while,
// so a stream that is accepted and dropped at once is retried ever more slowly. A connection with no
// byte for `idleTimeoutMs` (Hermes sends a keep-alive comment after 15 s of quiet) is ended and retried.

import { setTimeout as sleep } from 'node:timers/promises'

import type { EventSourceMessage } from 'eventsource-parser'

import type { Logger } from '../../../kit/logger.ts'
import type { Metrics } from '../../../kit/metrics.ts'
import { maskUrl } from '../../../kit/redaction.ts'
import type { Secret } from '../../../kit/secret.ts'
import { throttledWarning } from '../../../kit/throttled-warning.ts'
import { UPSTREAM_PAIRS } from '../feed-ids.ts'
import type { FeedSink, FeedSource } from './feed-source.ts'
import { HERMES_ERROR_KINDS, hermesErrorKind } from './hermes-error-event.ts'
import { HermesFeeds, type HermesReadiness } from './hermes-feeds.ts'
import { listedFeedIds } from './hermes-feed-list.ts'
import { readPriceUpdate } from './hermes-price-update.ts'
import { HermesRefusal } from './hermes-refusal.ts'
import { hermesHeaders, hermesUrl, logSafe } from './hermes-request.ts'
import { readHermesStream } from './hermes-stream.ts'
import { reconnectDelayMs, type ReconnectPolicy } from './reconnect-delay.ts'
import { RepeatFilter } from './repeat-filter.ts'

export interface HermesTiming {
  /** a connection that has delivered prices for this long counts as healthy: the backoff starts over */
  healthyAfterMs: number
  /** the wait after Hermes refuses the key (401/403) */
  authRetryMs: number
  /** the wait after a 429 without Retry-After (the public endpoint refuses for 60 s) */
  rateLimitWaitMs: number
  /** a connection with no byte for this long is ended and retried */
  idleTimeoutMs: number
  /** the feed-list request may take this long */
  feedListTimeoutMs: number
  /** a recurring problem (refused key, an error-event kind) is logged at most once per this */
  errorLogIntervalMs: number
}

export const HERMES_TIMING: HermesTiming = {
  healthyAfterMs: 30_000,
  authRetryMs: 300_000,
  rateLimitWaitMs: 60_000,
  idleTimeoutMs: 60_000,
  feedListTimeoutMs: 30_000,
  errorLogIntervalMs: 60_000,
}

export type HermesMetrics = Pick<
  Metrics,
  'hermesHttpErrors' | 'hermesAuthRefused' | 'hermesErrorEvents' | 'hermesRepeatsSuppressed' | 'hermesUnknownFeedIds'
>

export interface HermesSourceOptions {
  /** e.g. https://hermes.pyth.network; a path prefix and query parameters (as some providers use) are kept */
  baseUrl: string
  /** sent as `Authorization: Bearer <key>` */
  apiKey?: Secret<string>
  /** pairs to stream; default: every pair with a real upstream feed. Pairs with a synthetic id are skipped. */
  pairs?: readonly string[]
  /** ask Hermes to drop ids it does not know rather than refuse the stream with 404 (default true) */
  ignoreInvalidPriceIds?: boolean
  logger: Logger
  metrics: HermesMetrics
  reconnect: ReconnectPolicy
  timing?: Partial<HermesTiming>
}

export type { HermesReadiness }

export interface HermesSource extends FeedSource {
  readiness(): HermesReadiness
}

const FEED_LIST_PATH = 'v2/price_feeds'

/** A wait before the next connection, at least `minimumMs`, and why (logged). */
interface Wait {
  minimumMs: number
  reason: string
}

export function hermesSource(options: HermesSourceOptions): HermesSource {
  const stopping = new AbortController()
  const session = new HermesSession(options, stopping.signal)
  let running: Promise<void> | undefined
  return {
    name: 'hermes',
    start(sink) {
      if (running) throw new Error('hermes source already started')
      running = session.run(sink).finally(() => session.logger.info('stopped'))
    },
    async stop() {
      stopping.abort()
      await running
    },
    readiness: () => session.feeds.readiness(),
  }
}

/** The source's life: connections one after another, each failure classified into how long to wait. */
class HermesSession {
  readonly logger: Logger
  readonly feeds: HermesFeeds
  private readonly timing: HermesTiming
  private readonly metrics: HermesMetrics
  private readonly safe: (text: string) => string
  private readonly repeats = new RepeatFilter()
  private readonly logAuthRefusal: ReturnType<typeof throttledWarning>
  private readonly logErrorEvent: ReturnType<typeof throttledWarning>

  constructor(
    private readonly options: HermesSourceOptions,
    private readonly stopping: AbortSignal,
  ) {
    this.logger = options.logger.child({ source: 'hermes' })
    this.timing = { ...HERMES_TIMING, ...options.timing }
    this.metrics = options.metrics
    this.safe = logSafe(options.baseUrl, options.apiKey)
    this.feeds = new HermesFeeds(options.pairs ?? UPSTREAM_PAIRS, this.logger, (count) => this.metrics.hermesUnknownFeedIds.set(count))
    const { errorLogIntervalMs } = this.timing
    this.logAuthRefusal = throttledWarning(this.logger, 'Hermes refused the request: check HERMES_API_KEY', errorLogIntervalMs, 'error')
    this.logErrorEvent = throttledWarning(this.logger, 'Hermes sent an error event', errorLogIntervalMs)
    for (const kind of HERMES_ERROR_KINDS) this.metrics.hermesErrorEvents.labels(kind).inc(0)
  }

  async run(sink: FeedSink): Promise<void> {
    if (this.feeds.size === 0) {
      this.logger.warn('no pairs with an upstream feed to stream')
      return
    }
    this.logger.info({ upstream: maskUrl(this.options.baseUrl), apiKey: this.options.apiKey !== undefined }, 'streaming from Hermes')
    let failures = 0
    while (!this.stopping.aborted) {
      let wait: Wait = { minimumMs: 0, reason: 'ended' }
      try {
        if (this.feeds.state.feedList !== 'checked') await this.checkFeedList()
        if (this.feeds.size === 0) {
          this.logger.error('Hermes knows none of the configured feeds; not streaming')
          return
        }
        await this.streamOnce(sink, () => {
          failures = 0
        })
        this.logger.info('stream ended by upstream')
      } catch (error) {
        if (this.stopping.aborted) break
        wait = this.onFailure(error)
      }
      if (this.stopping.aborted) break
      const delayMs = Math.max(reconnectDelayMs(failures, this.options.reconnect), wait.minimumMs)
      failures += 1
      this.logger.info({ delayMs: Math.round(delayMs), attempt: failures, reason: wait.reason }, 'reconnect scheduled')
      await sleep(delayMs, undefined, { signal: this.stopping }).catch(() => undefined)
    }
  }

  /** Reports and leaves out configured ids missing from Hermes's feed list. Key and limit refusals are thrown. */
  private async checkFeedList(): Promise<void> {
    const signal = AbortSignal.any([this.stopping, AbortSignal.timeout(this.timing.feedListTimeoutMs)])
    try {
      const headers = hermesHeaders(this.options.apiKey, 'application/json')
      const listed = await listedFeedIds(hermesUrl(this.options.baseUrl, FEED_LIST_PATH), { headers, signal }, this.safe)
      this.feeds.state.feedList = 'checked'
      this.keyAccepted()
      this.feeds.markUnknown(
        this.feeds.ids().filter((feedId) => !listed.has(feedId)),
        'missing from the feed list',
      )
    } catch (error) {
      if (this.stopping.aborted) throw error
      if (error instanceof HermesRefusal && (error.kind === 'auth' || error.kind === 'rate_limited')) throw error
      this.feeds.state.feedList = 'failed'
      this.metricRefusal(error)
      this.logger.warn({ err: this.describe(error) }, 'feed list check failed; streaming without it, checking again on reconnect')
    }
  }

  /** One connection, until Hermes ends it; `onHealthy` once it has delivered prices for `healthyAfterMs`. */
  private async streamOnce(sink: FeedSink, onHealthy: () => void): Promise<void> {
    let connectedAt = 0
    let healthy = false
    await readHermesStream({
      url: this.feeds.streamUrl(this.options.baseUrl, this.options.ignoreInvalidPriceIds ?? true),
      headers: hermesHeaders(this.options.apiKey, 'text/event-stream'),
      signal: this.stopping,
      idleTimeoutMs: this.timing.idleTimeoutMs,
      safe: this.safe,
      onConnected: () => {
        this.keyAccepted()
        this.logger.info({ feeds: this.feeds.size }, 'stream connected')
        connectedAt = Date.now()
      },
      onEvent: (event) => {
        const delivered = this.handleEvent(event, sink)
        if (delivered && !healthy && Date.now() - connectedAt >= this.timing.healthyAfterMs) {
          healthy = true
          onHealthy()
        }
      },
    })
  }

  /** Passes the event's changed quotes on; true when it was a price update (not an error event). */
  private handleEvent(event: EventSourceMessage, sink: FeedSink): boolean {
    if (event.event === 'error') {
      const kind = hermesErrorKind(event.data)
      this.metrics.hermesErrorEvents.labels(kind).inc()
      this.logErrorEvent(kind, { kind, upstreamMessage: this.safe(event.data) })
      return false
    }
    const { quotes, malformations } = readPriceUpdate(event.data, this.feeds.lookup)
    for (const { reason, detail } of malformations) sink.malformed(reason, detail)
    let suppressed = 0
    for (const quote of quotes) {
      if (this.repeats.isRepeat(quote)) suppressed += 1
      else sink.quote(quote)
    }
    if (suppressed > 0) this.metrics.hermesRepeatsSuppressed.inc(suppressed)
    return true
  }

  /** Logs and counts a failed attempt; says how long to wait at least before the next. */
  private onFailure(error: unknown): Wait {
    this.metricRefusal(error)
    if (!(error instanceof HermesRefusal)) {
      this.logger.warn({ err: this.describe(error) }, 'stream failed')
      return { minimumMs: 0, reason: 'failed' }
    }
    const fields = { endpoint: error.endpoint, status: error.status, body: error.body }
    if (error.kind === 'auth') {
      this.feeds.state.authRefused = true
      this.metrics.hermesAuthRefused.set(1)
      const retryInMs = this.timing.authRetryMs
      this.logAuthRefusal('auth', { ...fields, apiKeyConfigured: this.options.apiKey !== undefined, retryInMs })
      return { minimumMs: Math.max(retryInMs, error.retryAfterMs ?? 0), reason: 'auth' }
    }
    if (error.kind === 'rate_limited') {
      const waitMs = error.retryAfterMs ?? this.timing.rateLimitWaitMs
      this.logger.warn({ ...fields, waitMs }, 'Hermes rate limit reached; waiting it out')
      return { minimumMs: waitMs, reason: 'rate_limited' }
    }
    const named = error.feedIds.filter((feedId) => this.feeds.has(feedId))
    if (error.kind === 'unknown_feed_ids' && named.length > 0) {
      this.feeds.markUnknown(named, 'refused by the stream (404)')
      return { minimumMs: 0, reason: 'unknown_feed_ids' }
    }
    this.logger.warn(fields, 'Hermes refused the stream')
    return { minimumMs: 0, reason: 'http_error' }
  }

  private keyAccepted(): void {
    this.feeds.state.authRefused = false
    this.metrics.hermesAuthRefused.set(0)
  }

  private metricRefusal(error: unknown): void {
    if (error instanceof HermesRefusal) this.metrics.hermesHttpErrors.labels(error.endpoint, String(error.status)).inc()
  }

  /** The error's message and its cause's (fetch hides the network reason there), fit for a log line. */
  private describe(error: unknown): string {
    if (!(error instanceof Error)) return this.safe(String(error))
    const cause = error.cause instanceof Error ? ` (${error.cause.message})` : ''
    return this.safe(`${error.message}${cause}`)
  }
}
