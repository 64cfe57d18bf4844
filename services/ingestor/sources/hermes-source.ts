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

import { createParser, type EventSourceMessage } from 'eventsource-parser'

import type { Logger } from '../../../kit/logger.ts'
import type { Metrics } from '../../../kit/metrics.ts'
import type { Secret } from '../../../kit/secret.ts'
import { throttledWarning } from '../../../kit/throttled-warning.ts'
import { UPSTREAM_PAIRS, feedIdFor, normalizeFeedId } from '../feed-ids.ts'
import type { FeedSink, FeedSource } from './feed-source.ts'
import { HERMES_ERROR_KINDS, hermesErrorKind } from './hermes-error-event.ts'
import { listedFeedIds } from './hermes-feed-list.ts'
import { readPriceUpdate, type FeedLookup } from './hermes-price-update.ts'
import { HermesRefusal, hermesRefusal } from './hermes-refusal.ts'
import { hermesHeaders, hermesUrl, loggable, requestSecrets } from './hermes-request.ts'
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

export interface HermesReadiness {
  /** whether the configured ids have been checked against Hermes's feed list */
  feedList: 'unchecked' | 'checked' | 'failed'
  /** configured feeds Hermes does not know; their pairs get no prices */
  unknownFeeds: Array<{ pair: string; feedId: string }>
  /** Hermes refused the key (or its absence) on the latest request */
  authRefused: boolean
}

export interface HermesSource extends FeedSource {
  readiness(): HermesReadiness
}

const STREAM_PATH = 'v2/updates/price/stream'
const FEED_LIST_PATH = 'v2/price_feeds'

export function hermesSource(options: HermesSourceOptions): HermesSource {
  const logger = options.logger.child({ source: 'hermes' })
  const timing = { ...HERMES_TIMING, ...options.timing }
  const { metrics } = options
  const secrets = requestSecrets(options.baseUrl, options.apiKey)
  const safe = (text: string) => loggable(text, secrets)
  const pairByFeedId = subscribedFeeds(options.pairs ?? UPSTREAM_PAIRS, logger)
  /** the ids asked for: the configured ones minus those Hermes turned out not to know */
  const subscribed = new Map(pairByFeedId)
  const lookup: FeedLookup = (id) => {
    const feedId = normalizeFeedId(id)
    const pair = pairByFeedId.get(feedId)
    return pair === undefined ? undefined : { pair, feedId }
  }
  const repeats = new RepeatFilter()
  const state: HermesReadiness = { feedList: 'unchecked', unknownFeeds: [], authRefused: false }
  const logAuthRefusal = throttledWarning(logger, 'Hermes refused the request: check HERMES_API_KEY', timing.errorLogIntervalMs, 'error')
  const logErrorEvent = throttledWarning(logger, 'Hermes sent an error event', timing.errorLogIntervalMs)
  for (const kind of HERMES_ERROR_KINDS) metrics.hermesErrorEvents.labels(kind).inc(0)
  const stopping = new AbortController()
  let running: Promise<void> | undefined

  async function run(sink: FeedSink): Promise<void> {
    if (subscribed.size === 0) {
      logger.warn('no pairs with an upstream feed to stream')
      return
    }
    logger.info({ upstream: new URL(options.baseUrl).origin, apiKey: options.apiKey !== undefined }, 'streaming from Hermes')
    let failures = 0
    while (!stopping.signal.aborted) {
      let wait = { minimumMs: 0, reason: 'ended' }
      try {
        if (state.feedList !== 'checked') await checkFeedList()
        if (subscribed.size === 0) {
          logger.error('Hermes knows none of the configured feeds; not streaming')
          return
        }
        await streamOnce(sink, () => {
          failures = 0
        })
        logger.info('stream ended by upstream')
      } catch (error) {
        if (stopping.signal.aborted) break
        wait = onFailure(error)
      }
      if (stopping.signal.aborted) break
      const delayMs = Math.max(reconnectDelayMs(failures, options.reconnect), wait.minimumMs)
      failures += 1
      logger.info({ delayMs: Math.round(delayMs), attempt: failures, reason: wait.reason }, 'reconnect scheduled')
      await sleep(delayMs, undefined, { signal: stopping.signal }).catch(() => undefined)
    }
  }

  /** Reports and leaves out configured ids missing from Hermes's feed list. Key and limit refusals are thrown. */
  async function checkFeedList(): Promise<void> {
    const signal = AbortSignal.any([stopping.signal, AbortSignal.timeout(timing.feedListTimeoutMs)])
    try {
      const headers = hermesHeaders(options.apiKey, 'application/json')
      const listed = await listedFeedIds(hermesUrl(options.baseUrl, FEED_LIST_PATH), { headers, signal }, safe)
      state.feedList = 'checked'
      keyAccepted()
      markUnknown(
        [...subscribed.keys()].filter((feedId) => !listed.has(feedId)),
        'missing from the feed list',
      )
    } catch (error) {
      if (stopping.signal.aborted) throw error
      if (error instanceof HermesRefusal && (error.kind === 'auth' || error.kind === 'rate_limited')) throw error
      state.feedList = 'failed'
      metricRefusal(error)
      logger.warn({ err: describe(error) }, 'feed list check failed; streaming without it, checking again on reconnect')
    }
  }

  /** Resolves when the upstream ends the stream; rejects when the request fails, is refused, goes idle or is aborted. */
  async function streamOnce(sink: FeedSink, onHealthy: () => void): Promise<void> {
    const idle = new AbortController()
    let idleTimer: NodeJS.Timeout | undefined
    const touch = () => {
      clearTimeout(idleTimer)
      idleTimer = setTimeout(() => idle.abort(new Error(`no data or keep-alive for ${timing.idleTimeoutMs} ms`)), timing.idleTimeoutMs)
    }
    touch()
    const signal = AbortSignal.any([stopping.signal, idle.signal])
    try {
      const response = await fetch(streamUrl(), { signal, headers: hermesHeaders(options.apiKey, 'text/event-stream') })
      if (!response.ok) {
        const body = await response.text().catch(() => '')
        throw hermesRefusal('stream', response.status, response.headers, safe(body))
      }
      if (!response.body) throw new Error('upstream answered without a body')
      keyAccepted()
      logger.info({ feeds: subscribed.size }, 'stream connected')

      const connectedAt = Date.now()
      let healthy = false
      const parser = createParser({
        onEvent(event) {
          const delivered = handleEvent(event, sink)
          if (delivered && !healthy && Date.now() - connectedAt >= timing.healthyAfterMs) {
            healthy = true
            onHealthy()
          }
        },
      })
      const decoder = new TextDecoder()
      const reader = response.body.getReader()
      try {
        for (;;) {
          const { done, value } = await reader.read()
          if (done) return
          touch()
          parser.feed(decoder.decode(value, { stream: true }))
        }
      } finally {
        // Closes the connection if reading stopped early (a sink threw); a no-op once the stream has ended.
        await reader.cancel().catch(() => undefined)
      }
    } finally {
      clearTimeout(idleTimer)
    }
  }

  /** Passes the event's changed quotes on; true when it was a price update (not an error event). */
  function handleEvent(event: EventSourceMessage, sink: FeedSink): boolean {
    if (event.event === 'error') {
      const kind = hermesErrorKind(event.data)
      metrics.hermesErrorEvents.labels(kind).inc()
      logErrorEvent(kind, { kind, upstreamMessage: safe(event.data) })
      return false
    }
    const { quotes, malformations } = readPriceUpdate(event.data, lookup)
    for (const { reason, detail } of malformations) sink.malformed(reason, detail)
    let suppressed = 0
    for (const quote of quotes) {
      if (repeats.isRepeat(quote)) suppressed += 1
      else sink.quote(quote)
    }
    if (suppressed > 0) metrics.hermesRepeatsSuppressed.inc(suppressed)
    return true
  }

  /** Logs and counts a failed attempt; says how long to wait at least before the next. */
  function onFailure(error: unknown): { minimumMs: number; reason: string } {
    metricRefusal(error)
    if (!(error instanceof HermesRefusal)) {
      logger.warn({ err: describe(error) }, 'stream failed')
      return { minimumMs: 0, reason: 'failed' }
    }
    const fields = { endpoint: error.endpoint, status: error.status, body: error.body }
    if (error.kind === 'auth') {
      state.authRefused = true
      metrics.hermesAuthRefused.set(1)
      logAuthRefusal('auth', { ...fields, apiKeyConfigured: options.apiKey !== undefined, retryInMs: timing.authRetryMs })
      return { minimumMs: Math.max(timing.authRetryMs, error.retryAfterMs ?? 0), reason: 'auth' }
    }
    if (error.kind === 'rate_limited') {
      const waitMs = error.retryAfterMs ?? timing.rateLimitWaitMs
      logger.warn({ ...fields, waitMs }, 'Hermes rate limit reached; waiting it out')
      return { minimumMs: waitMs, reason: 'rate_limited' }
    }
    const named = error.feedIds.filter((feedId) => subscribed.has(feedId))
    if (error.kind === 'unknown_feed_ids' && named.length > 0) {
      markUnknown(named, 'refused by the stream (404)')
      return { minimumMs: 0, reason: 'unknown_feed_ids' }
    }
    logger.warn(fields, 'Hermes refused the stream')
    return { minimumMs: 0, reason: 'http_error' }
  }

  function keyAccepted(): void {
    state.authRefused = false
    metrics.hermesAuthRefused.set(0)
  }

  function metricRefusal(error: unknown): void {
    if (error instanceof HermesRefusal) metrics.hermesHttpErrors.labels(error.endpoint, String(error.status)).inc()
  }

  function markUnknown(feedIds: readonly string[], how: string): void {
    if (feedIds.length === 0) return
    const feeds = feedIds.map((feedId) => ({ pair: subscribed.get(feedId)!, feedId }))
    for (const { feedId } of feeds) subscribed.delete(feedId)
    state.unknownFeeds.push(...feeds)
    metrics.hermesUnknownFeedIds.set(state.unknownFeeds.length)
    logger.error({ feeds, how }, 'Hermes does not know these feed ids: their pairs get no prices')
  }

  function streamUrl(): URL {
    const url = hermesUrl(options.baseUrl, STREAM_PATH)
    for (const feedId of subscribed.keys()) url.searchParams.append('ids[]', feedId)
    url.searchParams.set('parsed', 'true')
    // The binary proofs are not used here; base64 is their shorter encoding.
    url.searchParams.set('encoding', 'base64')
    // With it, Hermes drops ids it does not know (or has retired since) instead of refusing the stream (404).
    url.searchParams.set('ignore_invalid_price_ids', String(options.ignoreInvalidPriceIds ?? true))
    // allow_unordered and benchmarks_only keep their defaults (false): in-order updates, all of them.
    return url
  }

  /** The error's message and its cause's (fetch hides the network reason there), fit for a log line. */
  function describe(error: unknown): string {
    if (!(error instanceof Error)) return safe(String(error))
    const cause = error.cause instanceof Error ? ` (${error.cause.message})` : ''
    return safe(`${error.message}${cause}`)
  }

  return {
    name: 'hermes',
    start(sink) {
      if (running) throw new Error('hermes source already started')
      running = run(sink).finally(() => logger.info('stopped'))
    },
    async stop() {
      stopping.abort()
      await running
    },
    readiness: () => ({ ...state, unknownFeeds: [...state.unknownFeeds] }),
  }
}

/** feed id → pair, for the requested pairs that have a real upstream feed. */
function subscribedFeeds(pairs: readonly string[], logger: Logger): Map<string, string> {
  const pairByFeedId = new Map<string, string>()
  const skipped: string[] = []
  for (const pair of pairs) {
    const feedId = feedIdFor(pair) // throws for a symbol that is not a venue pair
    if (UPSTREAM_PAIRS.includes(pair)) pairByFeedId.set(feedId, pair)
    else skipped.push(pair)
  }
  if (skipped.length > 0) logger.info({ pairs: skipped }, 'pairs without an upstream feed are not streamed')
  return pairByFeedId
}
