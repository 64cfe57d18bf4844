import { createHash } from 'node:crypto'

import t from 'tap'

import { PAIRS } from '../../../schemas/pairs.ts'
import { FEED_IDS, UPSTREAM_PAIRS, feedIdFor, historySymbolFor, normalizeFeedId, pairForFeedId } from '../feed-ids.ts'

const SYNTHETIC_PAIRS = [
  'XCU-USD',
  'US500-USD',
  'US30-USD',
  'US100-USD',
  'JP225-JPY',
  'UK100-GBP',
  'GER40-EUR',
  'HK50-HKD',
  'BMNR-USD',
  'SBET-USD',
  'GLXY-USD',
  'RIVN-USD',
  'URA-USD',
  'KR2550-USD',
  'SHEL-USD',
  'UNG-USD',
  'MP-USD',
  'DRAM-USD',
  'REMX-USD',
  'BB-USD',
  'NBIS-USD',
  'SKHY-USD',
  'SPCX-USD',
]

t.test('one entry per pair, in pair-id order, each id a unique 0x-prefixed 32-byte hex', (t) => {
  t.equal(FEED_IDS.length, 83)
  t.strictSame(
    FEED_IDS.map((entry) => entry.pair),
    PAIRS.map((pair) => pair.symbol),
  )
  t.ok(
    FEED_IDS.every((entry) => /^0x[0-9a-f]{64}$/.test(entry.feedId)),
    'every id is lowercase 0x + 64 hex',
  )
  t.equal(new Set(FEED_IDS.map((entry) => entry.feedId)).size, 83, 'no two pairs share an id')
  t.end()
})

t.test('real Pyth ids for 60 pairs, synthetic stand-ins for the rest', (t) => {
  t.strictSame(
    FEED_IDS.filter((entry) => entry.source === 'synthetic').map((entry) => entry.pair),
    SYNTHETIC_PAIRS,
  )
  t.equal(UPSTREAM_PAIRS.length, 60)
  t.strictSame(
    UPSTREAM_PAIRS,
    FEED_IDS.filter((entry) => entry.source === 'pyth').map((entry) => entry.pair),
  )
  t.ok(
    FEED_IDS.every((entry) => (entry.source === 'pyth') === (entry.pythSymbol !== undefined)),
    'exactly the real entries name their Pyth symbol',
  )
  t.ok(
    FEED_IDS.every((entry) => entry.historySymbol === entry.pythSymbol),
    'the history source spells each real feed as Hermes does; synthetic entries have no history symbol',
  )
  t.equal(historySymbolFor('BTC-USD'), 'Crypto.BTC/USD')
  t.equal(historySymbolFor('EUR-USD'), 'FX.EUR/USD')
  t.equal(historySymbolFor('US500-USD'), undefined, 'a synthetic feed has no upstream history')

  // well-known Pyth ids, as published
  t.equal(feedIdFor('BTC-USD'), '0xe62df6c8b4a85fe1a67db44dc12de5db330f7ac66b72dc658afedf0f4a415b43')
  t.equal(feedIdFor('ETH-USD'), '0xff61491a931112ddf1bd8147cd1b641375f79f5825126d665480874634fd0ace')
  t.equal(feedIdFor('XAU-USD'), '0x765d2ba906dbc32ca17cc11f5310a89e9ee1f6420508c63861f2f8ba4ee34bb2')
  t.equal(feedIdFor('AAPL-USD'), '0x49f6b65cb1de6b10eaf75e7c03ca029c306d0357e91b5311b175084a5ad55688')
  t.equal(FEED_IDS.find((entry) => entry.pair === 'NVDA-USD')?.pythSymbol, 'Equity.US.NVDA/USD')

  const expectedSynthetic = `0x${createHash('sha256').update('venue-feed:US500-USD').digest('hex')}`
  t.equal(feedIdFor('US500-USD'), expectedSynthetic, 'synthetic id = sha256("venue-feed:" + symbol)')
  t.end()
})

t.test('pairForFeedId inverts feedIdFor, whatever the spelling of the id', (t) => {
  for (const { pair, feedId } of FEED_IDS) {
    const bare = feedId.slice(2)
    const spellings = [feedId, bare, feedId.toUpperCase(), bare.toUpperCase(), `0X${bare}`]
    t.ok(
      spellings.every((spelling) => pairForFeedId(spelling) === pair),
      `${pair} round-trips`,
    )
  }
  t.equal(pairForFeedId(`0x${'00'.repeat(32)}`), undefined)
  t.equal(pairForFeedId('not an id'), undefined)
  t.equal(normalizeFeedId('ABCDEF'), '0xabcdef')
  t.throws(() => feedIdFor('BTC-EUR'), /unknown pair BTC-EUR/)
  t.end()
})
