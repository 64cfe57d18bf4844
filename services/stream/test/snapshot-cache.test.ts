import t from 'tap'
import { pairBySymbol } from '../../../schemas/pairs.ts'
import { priceRow, rowBytes } from '../../../test/support/price-rows.ts'
import { snapshotFrame } from '../frames.ts'
import { PublishedTicks } from '../published-ticks.ts'
import { SnapshotCache } from '../snapshot-cache.ts'

const id = (symbol: string) => pairBySymbol(symbol)!.id
const BTC = id('BTC-USD')
const ETH = id('ETH-USD')
const SOL = id('SOL-USD')

function publishedWith(symbols: string[]): PublishedTicks {
  const published = new PublishedTicks()
  for (const symbol of symbols) published.record(id(symbol), 1, rowBytes(priceRow(symbol)))
  return published
}

t.test('connections with the same filter get the same Buffer until one of its pairs ticks', async (t) => {
  const published = publishedWith(['BTC-USD', 'ETH-USD', 'SOL-USD'])
  const cache = new SnapshotCache(published)
  const first = cache.frameFor(new Set([ETH, BTC]))
  t.same(first, snapshotFrame(published, new Set([BTC, ETH])), 'the bytes a frame built alone has')
  t.equal(cache.frameFor(new Set([BTC, ETH])), first, 'the same instance, whatever order the pairs were listed in')

  published.record(SOL, 2, rowBytes(priceRow('SOL-USD', { mid: 30 })))
  t.equal(cache.frameFor(new Set([BTC, ETH])), first, 'a tick of a pair outside the filter leaves it current')

  published.record(ETH, 2, rowBytes(priceRow('ETH-USD', { mid: 2 })))
  const rebuilt = cache.frameFor(new Set([BTC, ETH]))
  t.not(rebuilt, first, 'a tick of one of its pairs makes a new frame')
  t.same(rebuilt, snapshotFrame(published, new Set([BTC, ETH])))
  t.equal(cache.frameFor(new Set([ETH, BTC])), rebuilt, 'which is shared in turn')
})

t.test('every pair, no pair and one pair are frames of their own', async (t) => {
  const published = publishedWith(['BTC-USD', 'ETH-USD'])
  const cache = new SnapshotCache(published)
  const everyPair = cache.frameFor(null)
  const none = cache.frameFor(new Set())
  const one = cache.frameFor(new Set([BTC]))
  t.same(
    [everyPair, none, one],
    [snapshotFrame(published, null), snapshotFrame(published, new Set()), snapshotFrame(published, new Set([BTC]))],
  )
  t.equal(cache.frameFor(null), everyPair, 'every pair: shared')
  t.equal(cache.frameFor(new Set()), none, 'no pair: shared')
  t.equal(cache.frameFor(new Set([BTC])), one, 'one pair: shared')
  published.record(SOL, 2, rowBytes(priceRow('SOL-USD')))
  t.not(cache.frameFor(null), everyPair, 'every pair: any tick makes a new frame')
  t.equal(cache.frameFor(new Set()), none, 'no pair: never')
})

t.test('past its size the least recently used frames are let go, and built again when asked for', async (t) => {
  const published = publishedWith(['BTC-USD', 'ETH-USD', 'SOL-USD'])
  const sizeOf = (pairId: number) => snapshotFrame(published, new Set([pairId])).length
  // room for two one-pair frames, not three
  const cache = new SnapshotCache(published, sizeOf(BTC) + sizeOf(ETH) + sizeOf(SOL) - 1)
  const btc = cache.frameFor(new Set([BTC]))
  const eth = cache.frameFor(new Set([ETH]))
  t.equal(cache.frameFor(new Set([BTC])), btc, 'BTC used again: ETH is now the least recently used')
  cache.frameFor(new Set([SOL]))
  t.equal(cache.frameFor(new Set([BTC])), btc, 'BTC kept')
  t.not(cache.frameFor(new Set([ETH])), eth, 'ETH was let go and is built again')
  const big = new SnapshotCache(published, 1)
  const alone = big.frameFor(null)
  t.equal(big.frameFor(null), alone, 'a frame larger than the whole cache is still kept until the next one')
})
