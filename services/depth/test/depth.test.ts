// GET /v1/depth/{pair} and its quote on a real server: figures against hand-computed values of the
// model (fed by the stand-in's open interest and a live row), pair 53, unknown pairs, missing prices,
// validation, the source failing, and the depth budget.

import t from 'tap'
import { priceRow, rowBytes } from '../../../test/support/price-rows.ts'
import type { PriceRow } from '../../../schemas/price.ts'
import { DepthBook, Quote } from '../../../schemas/depth.ts'
import { startGateway } from '../../indexer/test/fixtures/gateway.ts'
import { depthRoutes } from '../routes.ts'

const AT = 1_767_225_600
const rows = new Map<string, Buffer>()
const live = (pair: string, overrides: Partial<PriceRow>) =>
  rows.set(pair, rowBytes(priceRow(pair, { timestampSeconds: AT, ...overrides })))
live('BTC-USD', { bid: 99_990, mid: 100_000, ask: 100_010 })
live('USD-KRW', { bid: 1399.3, mid: 1400, ask: 1400.7 })
live('US500-USD', { bid: 6720, mid: 6721, ask: 6722 })
// ETH-USD has no live row

// Seed on 42161, pair 0 (BTC-USD): K 2e-10 (×1e27: 2e17), threshold 5M, 8M bought and 1M sold, last
// updated at 1767225405; the figures are priced 600 s later.
const NOW = 1_767_225_405 + 600
const gateway = await startGateway(t, {
  routes: (indexer) =>
    depthRoutes({
      indexer,
      prices: { rowBody: (pair) => rows.get(pair) },
      levelsUsd: [10_000, 1_000_000, 5_000_000, 20_000_000],
      now: () => NOW,
    }),
})

const BTC_PRICE = { bid: 99_990, mid: 100_000, ask: 100_010, timestampSeconds: AT }
// Open interest: long 15.354898614822029606 BTC, short 134.905778414855205217 BTC, ceiling 24,400,000 USD.
// At mid 100,000 (USDC ×1e6, truncated): long 24.4M − 1,535,489.861481 = 22,864,510.138518; short
// 24.4M − 13,490,577.841485 = 10,909,422.158515. The group ceiling (40 % of 60M) is far off.
const LONG_ROOM = 22_864_510.13
const SHORT_ROOM = 10_909_422.15

t.test('depth of BTC-USD by the contract arithmetic on the pair state of the indexed source', async (t) => {
  const answer = await gateway.get('/v1/depth/BTC-USD')
  t.equal(answer.status, 200)
  t.equal(answer.headers.get('x-ratelimit-limit'), '60')
  t.ok(DepthBook.safeParse(answer.body).success)
  // Longs meet the decayed buy volume: rate 277777777777778 / 1.4 (imbalance 7M / 5M) = 198412698412698;
  // after 600 s, 8M × 0.887640449438202467 = 7,101,123.5955 USD, past the threshold, so every size pays
  // K · (V0 − T + S/2): 10k → 0.0421224719 % + 0.01 % spread = 0.052122 %, 1M → 0.062022 %, 5M → 0.102022 %,
  // 20M → 0.252022 %. Shorts meet 887,640.45 of sell volume: spread only until V0 + S passes 5M;
  // 5M → 0.011576 %.
  t.strictSame(answer.body, {
    pair: 'BTC-USD',
    chainId: 42161,
    ...BTC_PRICE,
    long: {
      availableNotionalUsd: LONG_ROOM,
      levels: [
        { notionalUsd: 10_000, fillPrice: 100_052.1225, impactPercent: 0.052122 },
        { notionalUsd: 1_000_000, fillPrice: 100_062.0225, impactPercent: 0.062022 },
        { notionalUsd: 5_000_000, fillPrice: 100_102.0225, impactPercent: 0.102022 },
        { notionalUsd: 20_000_000, fillPrice: 100_252.0225, impactPercent: 0.252022 },
      ],
    },
    short: {
      availableNotionalUsd: SHORT_ROOM,
      levels: [
        { notionalUsd: 10_000, fillPrice: 99_990, impactPercent: 0.01 },
        { notionalUsd: 1_000_000, fillPrice: 99_990, impactPercent: 0.01 },
        { notionalUsd: 5_000_000, fillPrice: 99_988.42419, impactPercent: 0.011576 },
      ],
    },
  })
})

t.test('quote: fill price, impact and the room left on that side', async (t) => {
  const short = await gateway.get('/v1/depth/BTC-USD/quote?side=short&notionalUsd=20000000')
  t.equal(short.status, 200)
  t.ok(Quote.safeParse(short.body).success)
  // excess 15,887,640.449438202467: 2e17 · excess² · 100 / (2 · 20e24) / 1e27 = 0.126209 %, + 0.01 %
  t.strictSame(short.body, {
    pair: 'BTC-USD',
    chainId: 42161,
    side: 'short',
    notionalUsd: 20_000_000,
    ...BTC_PRICE,
    fillPrice: 99_863.79144,
    impactPercent: 0.136209,
    availableNotionalUsd: SHORT_ROOM,
  })
  const long = await gateway.get('/v1/depth/BTC-USD/quote?side=long&notionalUsd=2000000.50&chainId=42161')
  // 2e17 · (7,101,123.5955 − 5M + 1,000,000.25) · 100 / 1e27 = 0.062022 %, + 0.01 %
  t.match(long.body, {
    side: 'long',
    notionalUsd: 2_000_000.5,
    fillPrice: 100_072.0225,
    impactPercent: 0.072022,
    availableNotionalUsd: LONG_ROOM,
  })
  const testnet = await gateway.get('/v1/depth/BTC-USD/quote?side=long&notionalUsd=10000&chainId=421614')
  t.equal(testnet.body.chainId, 421614)
  t.not(testnet.body.availableNotionalUsd, LONG_ROOM, "the chain's own open interest")
})

t.test('pair 53 (no open-interest ceiling): depth 503, the quote prices it with 0 available', async (t) => {
  const depth = await gateway.get('/v1/depth/USD-KRW')
  t.equal(depth.status, 503)
  t.strictSame(depth.body, {
    error: 'Service Unavailable',
    message: 'USD-KRW is not tradeable yet: it has no open-interest ceiling on chain 42161',
    details: { pair: 'USD-KRW', pairId: 53, chainId: 42161 },
  })
  const quote = await gateway.get('/v1/depth/USD-KRW/quote?side=long&notionalUsd=10000')
  t.equal(quote.status, 200)
  // spread term: 1.4 / 2800 × 100 = 0.05 %; 1400 · 1.0005 = 1400.7
  t.strictSame(quote.body, {
    pair: 'USD-KRW',
    chainId: 42161,
    side: 'long',
    notionalUsd: 10_000,
    bid: 1399.3,
    mid: 1400,
    ask: 1400.7,
    timestampSeconds: AT,
    fillPrice: 1400.7,
    impactPercent: 0.05,
    availableNotionalUsd: 0,
  })
})

t.test('symbols and their legacy spellings name a pair; answers use the symbol; unknown ones are 404', async (t) => {
  for (const [current, legacy] of [
    ['/v1/depth/US500-USD', '/v1/depth/SPX-USD'],
    ['/v1/depth/US500-USD/quote?side=long&notionalUsd=1', '/v1/depth/SPX-USD/quote?side=long&notionalUsd=1'],
  ] as const) {
    const byLegacy = await gateway.get(legacy)
    t.equal(byLegacy.status, 200, legacy)
    t.equal(byLegacy.body.pair, 'US500-USD', `${legacy} names the pair by its symbol`)
    t.strictSame(byLegacy.body, (await gateway.get(current)).body, `${legacy} answers as ${current}`)
  }
  const unknown = await gateway.get('/v1/depth/DOGE-USD')
  t.strictSame(unknown.body, {
    error: 'Not Found',
    message: 'unknown pair "DOGE-USD"; symbols look like BTC-USD (see GET /v1/pairs)',
    details: { pair: 'DOGE-USD' },
  })
})

t.test('no live price: 503', async (t) => {
  for (const path of ['/v1/depth/ETH-USD', '/v1/depth/ETH-USD/quote?side=short&notionalUsd=5000']) {
    const answer = await gateway.get(path)
    t.equal(answer.status, 503, path)
    t.strictSame(answer.body, {
      error: 'Service Unavailable',
      message: 'no live price for ETH-USD yet; depth and quotes are priced off it, retry shortly',
      details: { pair: 'ETH-USD' },
    })
  }
})

t.test('every parameter is validated', async (t) => {
  const cases: Array<[string, Array<[string, string]>]> = [
    ['/v1/depth/BTC-USD?chainId=1', [['chainId', 'invalid_union']]],
    ['/v1/depth/BTC-USD?side=long', [['', 'unrecognized_keys']]],
    [
      '/v1/depth/BTC-USD/quote',
      [
        ['side', 'invalid_value'],
        ['notionalUsd', 'invalid_type'],
      ],
    ],
    ['/v1/depth/BTC-USD/quote?side=buy&notionalUsd=100', [['side', 'invalid_value']]],
    ['/v1/depth/BTC-USD/quote?side=long&notionalUsd=0', [['notionalUsd', 'too_small']]],
    ['/v1/depth/BTC-USD/quote?side=long&notionalUsd=-5', [['notionalUsd', 'invalid_format']]],
    ['/v1/depth/BTC-USD/quote?side=long&notionalUsd=1e4', [['notionalUsd', 'invalid_format']]],
    ['/v1/depth/BTC-USD/quote?side=long&notionalUsd=1000000000001', [['notionalUsd', 'too_big']]],
    ['/v1/depth/BTC-USD/quote?side=long&notionalUsd=10&chainId=5', [['chainId', 'invalid_union']]],
    ['/v1/depth/BTC-USD/quote?side=long&notionalUsd=10&size=2', [['', 'unrecognized_keys']]],
  ]
  for (const [path, issues] of cases) {
    const answer = await gateway.get(path)
    t.equal(answer.status, 400, path)
    t.match(answer.body, { error: 'Bad Request', message: 'invalid query parameters' })
    t.strictSame(
      answer.body.issues.map((issue: { path: string[]; code: string }) => [issue.path.join('.'), issue.code]),
      issues,
    )
  }
})

t.test('the source failing: 502', async (t) => {
  gateway.standin.setFault('http-500')
  t.teardown(() => gateway.standin.setFault('none'))
  const answer = await gateway.get('/v1/depth/BTC-USD/quote?side=long&notionalUsd=10')
  t.equal(answer.status, 502)
  t.strictSame(answer.body, {
    error: 'Bad Gateway',
    message: 'the indexed data source of chain 42161 answered HTTP 500',
    details: { chainId: 42161, reason: 'http_error' },
  })
})

t.test('one budget of 60 per 10 s per IP across depth and quote', async (t) => {
  const ip = '203.0.113.70'
  const paths = ['/v1/depth/BTC-USD', '/v1/depth/BTC-USD/quote?side=long&notionalUsd=10000']
  for (let n = 1; n <= 60; n++) {
    const answer = await gateway.get(paths[n % 2]!, ip)
    t.equal(answer.headers.get('x-ratelimit-remaining'), String(60 - n))
  }
  for (const path of paths) {
    const refused = await gateway.get(path, ip)
    t.equal(refused.status, 429)
    t.equal(refused.body.details.budget, 'depth')
  }
})
