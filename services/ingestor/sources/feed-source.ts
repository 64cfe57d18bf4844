// What every price source (simulator, upstream adapter, replay file) gives the ingestor.

/** One upstream price for one pair, before normalisation into a price row. */
export interface UpstreamQuote {
  /** pair symbol as in schemas/pairs.ts, e.g. "BTC-USD" */
  pair: string
  /** upstream oracle feed id (32-byte hex with 0x) */
  feedId: string
  bid: number
  mid: number
  ask: number
  /** when the upstream priced it, Unix seconds */
  publishTimeSeconds: number
}

export interface FeedSink {
  quote(quote: UpstreamQuote): void
  /** upstream data that could not be turned into a quote; `reason` is a short stable label */
  malformed(reason: string, detail?: Record<string, unknown>): void
}

export interface FeedSource {
  readonly name: string
  start(sink: FeedSink): void
  stop(): Promise<void>
}
