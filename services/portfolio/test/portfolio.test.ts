// The four portfolio endpoints against the real stand-in: validation of every parameter (before the
// source is asked: 400 in the framework shape with zod's raw issues), envelopes and records (fields
// exact, units converted, checked against values worked out by hand), ordering and paging past
// `skip`'s ceiling, legacy spellings, the one shared budget, and coalescing of identical reads.

import t from 'tap'
import { LimitsEnvelope } from '../../../schemas/limits.ts'
import { OrdersEnvelope } from '../../../schemas/orders.ts'
import { PairsEnvelope } from '../../../schemas/pair-list.ts'
import { TradesEnvelope } from '../../../schemas/trades.ts'
import { FEED_IDS } from '../../ingestor/feed-ids.ts'
import { DEMO_TRADER, WHALE_TRADER, seedData, type LimitRow, type OrderRow, type TradeRow } from '../../../standins/subgraph/index.ts'
import { startGateway } from '../../indexer/test/fixtures/gateway.ts'
import { portfolioRoutes } from '../routes.ts'

const demo = DEMO_TRADER.toLowerCase()
const mainnet = seedData(42161)

// a cache long enough that a burst of reads is served from one upstream answer
const gateway = await startGateway(t, { routes: portfolioRoutes, cacheMs: 60_000 })

const byTime = (time: (row: any) => bigint, direction: 1 | -1) => (a: { id: string }, b: { id: string }) =>
  direction * (Number(time(a) - time(b)) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))

/** The seed's resting orders of a wallet, oldest first, as the endpoint lists them. */
function restingIds(trader: string): string[] {
  return mainnet.limits
    .filter((row) => row.trader === trader && row.isActive)
    .sort(byTime((row: LimitRow) => row.initiatedAt, 1))
    .map((row) => row.id)
}

/** The seed's settled orders of a wallet, newest first. */
function settledRows(trader: string): OrderRow[] {
  return mainnet.orders.filter((row) => row.trader === trader && !row.isPending).sort(byTime((row: OrderRow) => row.executedAt, -1))
}

const TRADER_PARAM = `trader=${DEMO_TRADER}`
const WHOLE_NUMBER = { code: 'invalid_format', message: 'must be a whole number' }

/** [query, the one issue expected: its path, code and message] */
type Case = [string, { path: Array<string | number>; code: string; message: string }]

const WALLET_LIST_CASES: Case[] = [
  ['', { path: ['trader'], code: 'invalid_type', message: 'Invalid input: expected string, received undefined' }],
  [
    'trader=0x70997970C51812dc3A010C7d01b50e0d17dc79C',
    { path: ['trader'], code: 'invalid_format', message: 'must be 0x followed by 40 hex characters' },
  ],
  [
    'trader=70997970C51812dc3A010C7d01b50e0d17dc79C8aa',
    { path: ['trader'], code: 'invalid_format', message: 'must be 0x followed by 40 hex characters' },
  ],
  [`${TRADER_PARAM}&chainId=1`, { path: ['chainId'], code: 'invalid_union', message: 'must be one of 42161, 421614' }],
  [`${TRADER_PARAM}&chainId=arbitrum`, { path: ['chainId'], ...WHOLE_NUMBER }],
  [`${TRADER_PARAM}&first=0`, { path: ['first'], code: 'too_small', message: 'Too small: expected number to be >=1' }],
  [`${TRADER_PARAM}&first=1001`, { path: ['first'], code: 'too_big', message: 'Too big: expected number to be <=1000' }],
  [`${TRADER_PARAM}&first=1.5`, { path: ['first'], ...WHOLE_NUMBER }],
  [`${TRADER_PARAM}&skip=-1`, { path: ['skip'], ...WHOLE_NUMBER }],
  [`${TRADER_PARAM}&skip=5001`, { path: ['skip'], code: 'too_big', message: 'Too big: expected number to be <=5000' }],
  [`${TRADER_PARAM}&since=yesterday`, { path: ['since'], ...WHOLE_NUMBER }],
  [`${TRADER_PARAM}&page=2`, { path: [], code: 'unrecognized_keys', message: 'Unrecognized key: "page"' }],
]

const CASES: Record<string, Case[]> = {
  '/v1/limits': [
    ...WALLET_LIST_CASES,
    [`${TRADER_PARAM}&before=1762147074`, { path: [], code: 'unrecognized_keys', message: 'Unrecognized key: "before"' }],
  ],
  '/v1/trades': WALLET_LIST_CASES,
  '/v1/orders': [...WALLET_LIST_CASES, [`${TRADER_PARAM}&before=-5`, { path: ['before'], ...WHOLE_NUMBER }]],
  '/v1/pairs': [
    ['chainId=1', { path: ['chainId'], code: 'invalid_union', message: 'must be one of 42161, 421614' }],
    ['chainId=', { path: ['chainId'], ...WHOLE_NUMBER }],
    [TRADER_PARAM, { path: [], code: 'unrecognized_keys', message: 'Unrecognized key: "trader"' }],
  ],
}

t.test('every parameter is validated; the source is not asked', async (t) => {
  const forwarded = gateway.proxy.forwarded()
  for (const [path, cases] of Object.entries(CASES)) {
    for (const [query, issue] of cases) {
      const answer = await gateway.get(`${path}?${query}`)
      t.equal(answer.status, 400, `${path}?${query}`)
      t.strictSame(Object.keys(answer.body), ['error', 'message', 'issues'])
      t.equal(answer.body.error, 'Bad Request')
      t.equal(answer.body.message, 'invalid query parameters')
      t.equal(answer.body.issues.length, 1)
      t.match(answer.body.issues[0], issue)
      t.strictSame(answer.body.issues[0].path, issue.path)
    }
  }
  t.equal(gateway.proxy.forwarded(), forwarded)
})

t.test('the edges of each range are accepted', async (t) => {
  for (const path of ['/v1/limits', '/v1/trades', '/v1/orders']) {
    for (const query of ['first=1&skip=0', 'first=1000&skip=5000', 'chainId=421614&since=0']) {
      t.equal((await gateway.get(`${path}?${TRADER_PARAM}&${query}`)).status, 200, `${path}?${query}`)
    }
  }
  t.equal((await gateway.get('/v1/orders?trader=0x' + 'ab'.repeat(20) + '&before=0')).status, 200)
  t.equal((await gateway.get('/v1/pairs?chainId=421614')).status, 200)
})

t.test('GET /v1/limits', async (t) => {
  t.test('the envelope and the resting orders of the demo wallet, oldest first', async (t) => {
    const answer = await gateway.get(`/v1/limits?trader=${DEMO_TRADER}`)
    t.equal(answer.status, 200)
    t.equal(answer.headers.get('content-type'), 'application/json')
    t.ok(LimitsEnvelope.safeParse(answer.body).success, 'exactly the fields of spec 2.4')
    const { limits, ...head } = answer.body
    t.strictSame(head, { trader: demo, chainId: 42161, first: 100, skip: 0, count: 12 })
    t.strictSame(
      limits.map((limit: { id: string }) => limit.id),
      restingIds(demo),
    )
    t.ok(
      limits.every((limit: { isActive: boolean }) => limit.isActive),
      'nothing executed or cancelled',
    )
    // 18-decimal prices, 6-decimal USDC, leverage ×100, converted by hand
    t.strictSame(limits[0], {
      id: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8_60_0',
      trader: demo,
      isActive: true,
      isBuy: true,
      isDayTrade: false, // the subgraph's Limit has no such field
      limitType: 'STOP',
      openPrice: 150.7492157, // 150749215700000000000
      stopLossPrice: 0, // an unset exit
      takeProfitPrice: 0,
      collateral: 3893, // 3893000000
      notionalInUsd: 58395, // 58395000000
      notionalInUnits: 387.365199406473595338, // 387365199406473595338
      leverage: 15, // 1500
      orderId: '1000092',
      initiatedAt: '1762417573',
      updatedAt: '1762417573',
      pair: { id: '60', from: 'ARM', to: 'USD' },
    })
    t.equal(limits[1].stopLossPrice, 0.3059704919, '305970491900000000')
    for (const limit of limits)
      t.equal(limit.notionalInUsd, limit.collateral * limit.leverage, `${limit.id}: notional = collateral × leverage`)
  })

  t.test('the other chain has its own data; the address may be lowercase', async (t) => {
    const answer = await gateway.get(`/v1/limits?trader=${demo}&chainId=421614`)
    const expected = seedData(421614).limits.filter((row) => row.trader === demo && row.isActive)
    t.equal(answer.body.chainId, 421614)
    t.equal(answer.body.count, expected.length)
    t.strictSame(answer.body.limits.map((limit: { id: string }) => limit.id).sort(), expected.map((row) => row.id).sort())
  })

  t.test('first and skip page; since pages past the skip ceiling', async (t) => {
    const whale = restingIds(WHALE_TRADER)
    t.equal(whale.length, 6200)
    const page = await gateway.get(`/v1/limits?trader=${WHALE_TRADER}&first=3&skip=2`)
    t.strictSame(
      page.body.limits.map((limit: { id: string }) => limit.id),
      whale.slice(2, 5),
    )
    t.match(page.body, { first: 3, skip: 2, count: 3 })

    const deepest = await gateway.get(`/v1/limits?trader=${WHALE_TRADER}&first=1000&skip=5000`)
    t.strictSame(
      deepest.body.limits.map((limit: { id: string }) => limit.id),
      whale.slice(5000, 6000),
    )
    const cursor = deepest.body.limits.at(-1).initiatedAt
    const beyond = await gateway.get(`/v1/limits?trader=${WHALE_TRADER}&first=1000&since=${cursor}`)
    t.match(beyond.body, { first: 1000, skip: 0, count: 200 })
    t.strictSame(
      beyond.body.limits.map((limit: { id: string }) => limit.id),
      whale.slice(6000),
    )
    const cursorAndSkip = await gateway.get(`/v1/limits?trader=${WHALE_TRADER}&first=10&skip=190&since=${cursor}`)
    t.strictSame(
      cursorAndSkip.body.limits.map((limit: { id: string }) => limit.id),
      whale.slice(6190),
    )
  })

  t.test('a wallet with nothing resting gets an empty list', async (t) => {
    const answer = await gateway.get(`/v1/limits?trader=0x${'00'.repeat(20)}`)
    t.strictSame(answer.body, { trader: `0x${'00'.repeat(20)}`, chainId: 42161, first: 100, skip: 0, count: 0, limits: [] })
  })
})

t.test('GET /v1/trades: open positions, oldest first', async (t) => {
  const answer = await gateway.get(`/v1/trades?trader=${DEMO_TRADER}`)
  t.equal(answer.status, 200)
  t.ok(TradesEnvelope.safeParse(answer.body).success)
  const { trades, ...head } = answer.body
  t.strictSame(head, { trader: demo, chainId: 42161, first: 100, skip: 0, count: 8 })
  const open = mainnet.trades.filter((row) => row.trader === demo && row.isOpen).sort(byTime((row: TradeRow) => row.timestamp, 1))
  t.strictSame(
    trades.map((trade: { id: string }) => trade.id),
    open.map((row) => row.id),
  )
  // funding and rollover: the pair's per-OI accumulator now minus the trade's at open, × collateral ×
  // leverage (the Python SDK's GetTradeFundingFee): pair 49 accFundingLong 118893590000000000, trade
  // 119769930000000000 → −0.00087634 × 4265 × 3 = −11.2127703 (received); accRolloverLong
  // 20759420000000000 − 19199830000000000 → 0.00155959 × 12795 = 19.95495405
  t.strictSame(trades[0], {
    id: '500040',
    trader: demo,
    pair: { id: '49', from: 'COST', to: 'USD' },
    index: 0,
    isBuy: true,
    collateral: 4265, // 4265000000
    leverage: 3, // 300
    openPrice: 858.754598033217, // 858754598033217000000
    stopLossPrice: 697.6522354421854908, // 697652235442185490800
    takeProfitPrice: 1189.4609937358088667, // 1189460993735808866700
    notionalInUsd: 12795, // 12795000000
    notionalInUnits: 14.89948354198516193, // 14899483541985161930: asset units, 18 decimals
    funding: -11.2127703,
    rollover: 19.95495405,
    openedAt: '1762375085',
  })
  const since = await gateway.get(`/v1/trades?trader=${DEMO_TRADER}&since=${open[5]!.timestamp}`)
  t.strictSame(
    since.body.trades.map((trade: { id: string }) => trade.id),
    open.slice(6).map((row) => row.id),
    'since: opened strictly after',
  )
})

t.test('GET /v1/orders: settled orders, newest first', async (t) => {
  t.test('executed and cancelled orders, converted', async (t) => {
    const answer = await gateway.get(`/v1/orders?trader=${DEMO_TRADER}`)
    t.equal(answer.status, 200)
    t.ok(OrdersEnvelope.safeParse(answer.body).success)
    const { orders, ...head } = answer.body
    t.strictSame(head, { trader: demo, chainId: 42161, first: 100, skip: 0, count: 93 })
    t.strictSame(
      orders.map((order: { id: string }) => order.id),
      settledRows(demo).map((row) => row.id),
    )
    const close = orders.find((order: { id: string }) => order.id === '1000005')
    t.strictSame(close, {
      id: '1000005',
      trader: demo,
      pair: { id: '61', from: 'ASML', to: 'USD' },
      tradeId: '500002',
      isBuy: false,
      orderType: 'Market',
      orderAction: 'Close',
      price: 920.284741037444664, // 920284741037444664000
      priceAfterImpact: 920.652854933859641865, // 920652854933859641865
      priceImpactPercent: 0.04, // 4
      collateral: 40, // 40000000
      leverage: 15, // 1500
      notionalInUsd: 600, // 600000000
      notionalInUnits: 0.630457046746136093, // 630457046746136093
      profitPercent: 49.53, // 4953
      totalProfitPercent: 45.64, // 4564
      amountSentToTrader: 58.255397, // 58255397
      rolloverFee: 1.580168, // 1580168
      fundingFee: -0.023912, // -23912: received
      initiatedAt: '1759612933',
      executedAt: '1759612934',
      executedTx: '0x306ed04eda5d204d63ae5f8fcd226d05a42bd12f511c2d5a43e6fc2ecc27ff25',
      isCancelled: false,
      cancelReason: null, // NONE on the source
    })
    // cancelled before opening: tradeID "0" on the source
    t.match(
      orders.find((order: { id: string }) => order.id === '1000010'),
      {
        tradeId: null,
        isCancelled: true,
        cancelReason: 'EXPOSURE_LIMITS',
        price: 1.29202988,
        priceAfterImpact: 0,
        executedAt: '1759750151',
      },
    )
  })

  t.test('before pages past the skip ceiling; since keeps the newer ones', async (t) => {
    const whale = settledRows(WHALE_TRADER).map((row) => row.id)
    t.equal(whale.length, 6590)
    const deepest = await gateway.get(`/v1/orders?trader=${WHALE_TRADER}&first=1000&skip=5000`)
    t.strictSame(
      deepest.body.orders.map((order: { id: string }) => order.id),
      whale.slice(5000, 6000),
    )
    const cursor = deepest.body.orders.at(-1).executedAt
    const beyond = await gateway.get(`/v1/orders?trader=${WHALE_TRADER}&first=1000&before=${cursor}`)
    t.equal(beyond.body.count, 590)
    t.strictSame(
      beyond.body.orders.map((order: { id: string }) => order.id),
      whale.slice(6000),
    )
    const newest = settledRows(WHALE_TRADER)
    const since = await gateway.get(`/v1/orders?trader=${WHALE_TRADER}&since=${newest[3]!.executedAt}`)
    t.strictSame(
      since.body.orders.map((order: { id: string }) => order.id),
      whale.slice(0, 3),
    )
  })
})

t.test('GET /v1/pairs: every pair by pairIndex, in the source spelling', async (t) => {
  const answer = await gateway.get('/v1/pairs')
  t.equal(answer.status, 200)
  t.ok(PairsEnvelope.safeParse(answer.body).success)
  t.equal(answer.body.chainId, 42161)
  t.equal(answer.body.count, 83)
  const pairs = answer.body.pairs as Array<{ id: string; pair: string; from: string; to: string; tradeable: boolean }>
  t.strictSame(
    pairs.map((pair) => pair.id),
    Array.from({ length: 83 }, (_, id) => String(id)),
    'in pairIndex order',
  )
  t.strictSame(
    [6, 7, 10].map((id) => [pairs[id]!.from, pairs[id]!.to, pairs[id]!.pair]),
    [
      ['HG', 'USD', 'XCU-USD'],
      ['CL', 'USD', 'WTI-USD'],
      ['SPX', 'USD', 'US500-USD'],
    ],
    'legacy spellings kept; the symbol beside them',
  )
  t.strictSame(pairs[10], {
    id: '10',
    pair: 'US500-USD',
    from: 'SPX',
    to: 'USD',
    feed: FEED_IDS.find((entry) => entry.pair === 'US500-USD')!.feedId, // the feed of its price rows
    group: { id: '4', name: 'indices', minLeverage: 2, maxLeverage: 100 },
    tradeable: true,
    longOI: 1408.687311168334432435, // units, 18 decimals
    shortOI: 617.059754519522228781,
    maxOI: 16_700_000, // USDC 16700000000000
    makerFeeP: 0.01, // percent ×1e6: 10000
    takerFeeP: 0.03,
    spreadP: 0.01,
    maxLeverage: 100,
    overnightMaxLeverage: 50,
    lastTradePrice: 6756.52809893,
    curFundingLong: 3.273000189, // 3273000189 / 1e9, as both public SDKs scale it
    curFundingShort: 0.572664114, // 572664114
    curRollover: 0.000000000070353415, // 70353415, 18 decimals
  })
  t.match(pairs[53], { pair: 'USD-KRW', from: 'USD', to: 'KRW', tradeable: false, maxOI: 0, longOI: 0, shortOI: 0 })
  t.equal(pairs.filter((pair) => !pair.tradeable).length, 1, 'all others are tradeable')
  t.match(pairs[2], { pair: 'EUR-USD', from: 'EUR', to: 'USD' })

  const testnet = await gateway.get('/v1/pairs?chainId=421614')
  t.equal(testnet.body.chainId, 421614)
  t.equal(testnet.body.count, 83)
})

t.test('one budget of 60 per 10 s per IP across pairs, trades, limits and orders', async (t) => {
  const ip = '203.0.113.60'
  const paths = ['/v1/pairs', `/v1/trades?trader=${demo}`, `/v1/limits?trader=${demo}`, `/v1/orders?trader=${demo}`]
  for (let n = 1; n <= 60; n++) {
    const answer = await gateway.get(paths[n % 4]!, ip)
    t.equal(answer.status, 200)
    t.equal(answer.headers.get('x-ratelimit-limit'), '60')
    t.equal(answer.headers.get('x-ratelimit-remaining'), String(60 - n))
  }
  for (const path of paths) {
    const refused = await gateway.get(path, ip)
    t.equal(refused.status, 429, path)
    t.equal(refused.body.details.budget, 'portfolio')
    t.match(refused.headers.get('retry-after'), /^\d+$/)
  }
  t.equal((await gateway.get(paths[0]!, '203.0.113.61')).status, 200, 'another IP has its own budget')
})

t.test('a burst of identical reads costs one upstream request', async (t) => {
  const before = gateway.proxy.forwarded()
  const answers = await Promise.all(Array.from({ length: 25 }, () => gateway.get(`/v1/trades?trader=${WHALE_TRADER}&first=40`)))
  t.equal(gateway.proxy.forwarded() - before, 1)
  t.ok(answers.every((answer) => answer.status === 200 && answer.body.count === 40))
  t.strictSame(answers[24]!.body, answers[0]!.body)
})
