// Upstream prices from Pyth's Hermes server: one server-sent-events stream
// (GET <base>/v2/updates/price/stream?ids[]=...) carrying every subscribed feed.
//
// Hermes closes each stream after 24 hours (it sends an `error` event, then ends the response), and any
// connection can fail or be refused; the source reconnects after each with exponential backoff and
// jitter, starting again from the initial delay once a connection has been accepted. A connection that
// goes silent is ended by fetch itself (Node's body timeout, 300 s; Hermes sends a keep-alive comment
// every 15 s), and then reconnected like any other failure.

import { setTimeout as sleep } from 'node:timers/promises'

import { createParser, type EventSourceMessage } from 'eventsource-parser'
import type { Logger } from 'pino'

import { UPSTREAM_PAIRS, feedIdFor, normalizeFeedId } from '../feed-ids.ts'
import type { FeedSink, FeedSource } from './feed-source.ts'
import { readPriceUpdate, type FeedLookup } from './hermes-price-update.ts'
import { reconnectDelayMs, type ReconnectPolicy } from './reconnect-delay.ts'

export interface HermesSourceOptions {
  /** e.g. https://hermes.pyth.network; a path prefix (as some providers use) is kept */
  baseUrl: string
  /** pairs to stream; default: every pair with a real upstream feed. Pairs with a synthetic id are skipped. */
  pairs?: readonly string[]
  logger: Logger
  reconnect: ReconnectPolicy
}

const STREAM_PATH = 'v2/updates/price/stream'
const ERROR_BODY_CHARS = 200

export function hermesSource(options: HermesSourceOptions): FeedSource {
  const logger = options.logger.child({ source: 'hermes' })
  const pairByFeedId = subscribedFeeds(options.pairs ?? UPSTREAM_PAIRS, logger)
  const url = streamUrl(options.baseUrl, [...pairByFeedId.keys()])
  const lookup: FeedLookup = (id) => {
    const feedId = normalizeFeedId(id)
    const pair = pairByFeedId.get(feedId)
    return pair === undefined ? undefined : { pair, feedId }
  }
  const stopping = new AbortController()
  let running: Promise<void> | undefined

  async function run(sink: FeedSink): Promise<void> {
    if (pairByFeedId.size === 0) {
      logger.warn('no pairs with an upstream feed to stream')
      return
    }
    let failures = 0
    while (!stopping.signal.aborted) {
      try {
        await streamOnce(sink, () => {
          failures = 0
        })
        logger.info('stream ended by upstream')
      } catch (error) {
        if (stopping.signal.aborted) break
        logger.warn({ err: error }, 'stream failed')
      }
      if (stopping.signal.aborted) break
      const delayMs = reconnectDelayMs(failures, options.reconnect)
      failures += 1
      logger.info({ delayMs: Math.round(delayMs), attempt: failures }, 'reconnect scheduled')
      await sleep(delayMs, undefined, { signal: stopping.signal }).catch(() => undefined)
    }
  }

  /** Resolves when the upstream ends the stream; rejects when the request fails, is refused, or is aborted. */
  async function streamOnce(sink: FeedSink, onConnected: () => void): Promise<void> {
    const response = await fetch(url, { signal: stopping.signal, headers: { accept: 'text/event-stream' } })
    if (!response.ok) {
      const body = await response.text().catch(() => '')
      throw new Error(`upstream answered HTTP ${response.status}: ${body.slice(0, ERROR_BODY_CHARS)}`)
    }
    if (!response.body) throw new Error('upstream answered without a body')
    onConnected()
    logger.info({ feeds: pairByFeedId.size }, 'stream connected')

    const parser = createParser({ onEvent: (event) => handleEvent(event, sink) })
    const decoder = new TextDecoder()
    const reader = response.body.getReader()
    try {
      for (;;) {
        const { done, value } = await reader.read()
        if (done) return
        parser.feed(decoder.decode(value, { stream: true }))
      }
    } finally {
      // Closes the connection if reading stopped early (a sink threw); a no-op once the stream has ended.
      await reader.cancel().catch(() => undefined)
    }
  }

  function handleEvent(event: EventSourceMessage, sink: FeedSink): void {
    if (event.event === 'error') {
      // Hermes's own notices, e.g. "Connection timeout reached (24h)" just before it closes the stream.
      // They carry no prices, so they are logged rather than counted as malformed data.
      logger.warn({ upstreamMessage: event.data }, 'upstream sent an error event')
      return
    }
    const { quotes, malformations } = readPriceUpdate(event.data, lookup)
    for (const { reason, detail } of malformations) sink.malformed(reason, detail)
    for (const quote of quotes) sink.quote(quote)
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

function streamUrl(baseUrl: string, feedIds: readonly string[]): URL {
  const url = new URL(STREAM_PATH, baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`)
  for (const feedId of feedIds) url.searchParams.append('ids[]', feedId)
  url.searchParams.set('parsed', 'true')
  // The binary proofs are not used here; base64 is their shorter encoding.
  url.searchParams.set('encoding', 'base64')
  // Without this, one feed id Pyth has retired makes Hermes refuse the whole stream (404).
  url.searchParams.set('ignore_invalid_price_ids', 'true')
  // allow_unordered and benchmarks_only keep their defaults (false): in-order updates, all of them.
  return url
}
