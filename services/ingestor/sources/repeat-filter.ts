// Hermes sends every subscribed feed in every slot's event, changed or not (a closed market repeats its
// last close with its old publish time). A quote goes on only when its feed's row would change.

import type { UpstreamQuote } from './feed-source.ts'

export class RepeatFilter {
  private readonly last = new Map<string, UpstreamQuote>()

  /** true when the quote repeats its feed's previous one: same publish time, bid, mid and ask */
  isRepeat(quote: UpstreamQuote): boolean {
    const previous = this.last.get(quote.feedId)
    if (
      previous !== undefined &&
      previous.publishTimeSeconds === quote.publishTimeSeconds &&
      previous.mid === quote.mid &&
      previous.bid === quote.bid &&
      previous.ask === quote.ask
    ) {
      return true
    }
    this.last.set(quote.feedId, quote)
    return false
  }
}
