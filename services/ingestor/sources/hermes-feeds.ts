// The feeds the Hermes source asks for, and what Hermes has said of them and of the key: the subscription
// that the source's reconnections share.

import type { Logger } from '../../../kit/logger.ts'
import { UPSTREAM_PAIRS, feedIdFor, normalizeFeedId } from '../feed-ids.ts'
import type { FeedLookup } from './hermes-price-update.ts'
import { hermesUrl } from './hermes-request.ts'

export interface HermesReadiness {
  /** whether the configured ids have been checked against Hermes's feed list */
  feedList: 'unchecked' | 'checked' | 'failed'
  /** configured feeds Hermes does not know; their pairs get no prices */
  unknownFeeds: Array<{ pair: string; feedId: string }>
  /** Hermes refused the key (or its absence) on the latest request */
  authRefused: boolean
}

const STREAM_PATH = 'v2/updates/price/stream'

export class HermesFeeds {
  /** every configured feed id → its pair */
  private readonly pairByFeedId: Map<string, string>
  /** the ids asked for: the configured ones minus those Hermes turned out not to know */
  private readonly subscribed: Map<string, string>
  readonly state: HermesReadiness = { feedList: 'unchecked', unknownFeeds: [], authRefused: false }

  constructor(
    pairs: readonly string[],
    private readonly logger: Logger,
    /** called with the number of unknown feeds whenever it changes */
    private readonly onUnknownCount: (count: number) => void,
  ) {
    this.pairByFeedId = subscribedFeeds(pairs, logger)
    this.subscribed = new Map(this.pairByFeedId)
  }

  get size(): number {
    return this.subscribed.size
  }

  ids(): string[] {
    return [...this.subscribed.keys()]
  }

  has(feedId: string): boolean {
    return this.subscribed.has(feedId)
  }

  /** the pair of an id as Hermes spells it (any case, `0x` or not) */
  readonly lookup: FeedLookup = (id) => {
    const feedId = normalizeFeedId(id)
    const pair = this.pairByFeedId.get(feedId)
    return pair === undefined ? undefined : { pair, feedId }
  }

  /** Leaves ids out from now on, reporting them: their pairs get no prices. */
  markUnknown(feedIds: readonly string[], how: string): void {
    if (feedIds.length === 0) return
    const feeds = feedIds.map((feedId) => ({ pair: this.subscribed.get(feedId)!, feedId }))
    for (const { feedId } of feeds) this.subscribed.delete(feedId)
    this.state.unknownFeeds.push(...feeds)
    this.onUnknownCount(this.state.unknownFeeds.length)
    this.logger.error({ feeds, how }, 'Hermes does not know these feed ids: their pairs get no prices')
  }

  /** The stream's URL on `baseUrl` for the ids still asked for. */
  streamUrl(baseUrl: string, ignoreInvalidPriceIds: boolean): URL {
    const url = hermesUrl(baseUrl, STREAM_PATH)
    for (const feedId of this.subscribed.keys()) url.searchParams.append('ids[]', feedId)
    url.searchParams.set('parsed', 'true')
    // The binary proofs are not used here; base64 is their shorter encoding.
    url.searchParams.set('encoding', 'base64')
    // With it, Hermes drops ids it does not know (or has retired since) instead of refusing the stream (404).
    url.searchParams.set('ignore_invalid_price_ids', String(ignoreInvalidPriceIds))
    // allow_unordered and benchmarks_only keep their defaults (false): in-order updates, all of them.
    return url
  }

  readiness(): HermesReadiness {
    return { ...this.state, unknownFeeds: [...this.state.unknownFeeds] }
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
