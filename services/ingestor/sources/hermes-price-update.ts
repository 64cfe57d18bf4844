// Turns the data of one Hermes price-update event into quotes, and names what could not be used.
//
// The event data is JSON: `{ binary: { encoding, data }, parsed: [entry, ...] }`, one entry per feed:
//   { id: "<64 hex, no 0x>",
//     price:     { price: "<int64 as string>", conf: "<uint64 as string>", expo: <int>, publish_time: <unix s> },
//     ema_price: { ...same shape... },
//     metadata:  { slot, proof_available_time, prev_publish_time } }
// The real value is price × 10^expo. Only `id` and `price` are read here.
//
// Hermes carries a confidence interval, not an order book, so the quote is built as
//   mid = price × 10^expo,   bid = (price − conf) × 10^expo,   ask = (price + conf) × 10^expo
// i.e. the venue's spread is the publishers' confidence band around the aggregate price.

import type { UpstreamQuote } from './feed-source.ts'

export interface Malformation {
  /** short stable label, passed on as `FeedSink.malformed`'s reason */
  reason: 'invalid_json' | 'invalid_shape' | 'unknown_feed_id' | 'non_positive_price' | 'non_positive_bid'
  detail: Record<string, unknown>
}

export interface PriceUpdateContents {
  quotes: UpstreamQuote[]
  malformations: Malformation[]
}

/** Where a feed id from the stream belongs: the pair and the id's canonical spelling; undefined if unknown. */
export type FeedLookup = (feedId: string) => { pair: string; feedId: string } | undefined

interface HermesPrice {
  price: bigint
  conf: bigint
  expo: number
  publishTime: number
}

const SIGNED_INTEGER = /^-?\d+$/
const UNSIGNED_INTEGER = /^\d+$/
/** Pyth exponents are small negative integers (−8 for most feeds); anything far outside is corrupt data. */
const MAX_ABS_EXPO = 30
const DETAIL_SAMPLE_CHARS = 120

export function readPriceUpdate(data: string, lookup: FeedLookup): PriceUpdateContents {
  const contents: PriceUpdateContents = { quotes: [], malformations: [] }
  let body: unknown
  try {
    body = JSON.parse(data)
  } catch {
    contents.malformations.push({ reason: 'invalid_json', detail: { sample: data.slice(0, DETAIL_SAMPLE_CHARS) } })
    return contents
  }
  if (!isRecord(body) || !Array.isArray(body.parsed)) {
    contents.malformations.push({ reason: 'invalid_shape', detail: { expected: 'object with a parsed array' } })
    return contents
  }
  body.parsed.forEach((entry: unknown, index: number) => {
    const result = readEntry(entry, index, lookup)
    if ('reason' in result) contents.malformations.push(result)
    else contents.quotes.push(result)
  })
  return contents
}

function readEntry(entry: unknown, index: number, lookup: FeedLookup): UpstreamQuote | Malformation {
  if (!isRecord(entry) || typeof entry.id !== 'string') {
    return { reason: 'invalid_shape', detail: { index, expected: 'entry with a string id' } }
  }
  const price = readPrice(entry.price)
  if (!price) return { reason: 'invalid_shape', detail: { index, feedId: entry.id, expected: 'price object' } }

  const feed = lookup(entry.id)
  if (!feed) return { reason: 'unknown_feed_id', detail: { feedId: entry.id } }
  if (price.price <= 0n) {
    return { reason: 'non_positive_price', detail: { feedId: feed.feedId, price: String(price.price) } }
  }
  const bidUnits = price.price - price.conf
  if (bidUnits <= 0n) {
    return { reason: 'non_positive_bid', detail: { feedId: feed.feedId, conf: String(price.conf) } }
  }
  return {
    pair: feed.pair,
    feedId: feed.feedId,
    bid: scale(bidUnits, price.expo),
    mid: scale(price.price, price.expo),
    ask: scale(price.price + price.conf, price.expo),
    publishTimeSeconds: price.publishTime,
  }
}

function readPrice(value: unknown): HermesPrice | undefined {
  if (!isRecord(value)) return undefined
  const { price, conf, expo, publish_time: publishTime } = value
  if (typeof price !== 'string' || !SIGNED_INTEGER.test(price)) return undefined
  if (typeof conf !== 'string' || !UNSIGNED_INTEGER.test(conf)) return undefined
  if (typeof expo !== 'number' || !Number.isInteger(expo) || Math.abs(expo) > MAX_ABS_EXPO) return undefined
  if (typeof publishTime !== 'number' || !Number.isInteger(publishTime) || publishTime < 0) return undefined
  return { price: BigInt(price), conf: BigInt(conf), expo, publishTime }
}

/**
 * units × 10^expo. For a negative exponent this divides by an exact power of ten, so the result is the
 * double nearest the decimal value (108765 at expo −5 gives exactly the number 1.08765).
 */
function scale(units: bigint, expo: number): number {
  return expo < 0 ? Number(units) / 10 ** -expo : Number(units) * 10 ** expo
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
