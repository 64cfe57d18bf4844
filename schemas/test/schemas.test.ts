import t from 'tap'
import { LimitsQuery, RestingOrder } from '../limits.ts'
import { OnboardRequest, OnboardResponse, OnboardingState } from '../onboarding.ts'
import { PAIRS, pairById, pairByName, pairBySourceSpelling, pairBySymbol, sourceSpellingOf } from '../pairs.ts'
import { PriceRow, PriceSnapshot, StatusRecord } from '../price.ts'
import { ClientMessage, ServerFrame } from '../stream.ts'
import { FrameworkError, UpstreamProxyError } from '../errors.ts'

const address = '0x' + 'aB'.repeat(20)
const row = {
  feed_id: '0x' + 'e6'.repeat(32),
  pair: 'BTC-USD',
  from: 'BTC',
  to: 'USD',
  bid: 94999.5,
  mid: 95000,
  ask: 95000.5,
  isMarketOpen: true,
  isDayTradingClosed: false,
  secondsToToggleIsDayTradingClosed: -1,
  timestampSeconds: 1_795_000_000,
  schedule: {
    id: 0,
    alwaysOpen: true,
    timezone: 'UTC',
    openingHours: ['O', 'O', 'O', 'O', 'O', 'O', 'O'],
    dayTradingHours: { from: 'open+00:01', to: 'close-00:15' },
  },
}

t.test('pair list: 83 pairs by pairIndex, 53 listed but not tradeable', async (t) => {
  t.equal(PAIRS.length, 83)
  t.same(pairById(0), { id: 0, symbol: 'BTC-USD', base: 'BTC', quote: 'USD', assetClass: 'crypto', tradeable: true })
  t.same(pairById(53), { id: 53, symbol: 'USD-KRW', base: 'USD', quote: 'KRW', assetClass: 'fx', tradeable: false })
  t.same(pairBySymbol('SPCX-USD')?.id, 82)
  t.equal(pairBySymbol('JP225-JPY')?.quote, 'JPY')
  t.same(
    PAIRS.filter((pair) => !pair.tradeable).map((pair) => pair.id),
    [53],
  )
  t.equal(new Set(PAIRS.map((pair) => pair.symbol)).size, 83)
})

t.test("the indexed source's spellings: one table for pairs, prices, depth, candles and the stream", async (t) => {
  const renamed = PAIRS.filter((pair) => sourceSpellingOf(pair).from !== pair.base)
  t.strictSame(
    renamed.map((pair) => [pair.symbol, `${sourceSpellingOf(pair).from}-${sourceSpellingOf(pair).to}`]),
    [
      ['XCU-USD', 'HG-USD'],
      ['WTI-USD', 'CL-USD'],
      ['US500-USD', 'SPX-USD'],
      ['US30-USD', 'DJI-USD'],
      ['US100-USD', 'NDX-USD'],
      ['JP225-JPY', 'NIK-JPY'],
      ['UK100-GBP', 'FTSE-GBP'],
      ['GER40-EUR', 'DAX-EUR'],
      ['HK50-HKD', 'HSI-HKD'],
    ],
    "the nine bases of the venue's C# connector's rename table",
  )
  t.strictSame(sourceSpellingOf(pairById(0)!), { from: 'BTC', to: 'USD' }, 'every other pair is spelled as its symbol')
  t.equal(pairBySourceSpelling('SPX', 'USD')?.symbol, 'US500-USD')
  t.equal(pairBySourceSpelling('BTC', 'USD')?.symbol, 'BTC-USD')
  t.equal(pairBySourceSpelling('US500', 'USD'), undefined, 'the source does not spell it so')
  t.equal(pairByName('CL-USD')?.symbol, 'WTI-USD')
  t.equal(pairByName('NIK-JPY')?.symbol, 'JP225-JPY')
  t.equal(pairByName('WTI-USD')?.symbol, 'WTI-USD', 'the current symbol too')
  t.equal(pairByName('NIK-USD'), undefined, 'a legacy base with a quote the pair does not have')
  t.equal(pairByName('spx-usd'), undefined, 'spelled as the pairs list spells it, upper case')
  t.equal(pairByName('DOGE-USD'), undefined)
})

t.test('price row, snapshot and status accept the spec shapes', async (t) => {
  t.ok(PriceRow.safeParse(row).success)
  t.notOk(PriceRow.safeParse({ ...row, schedule: { id: 3, alwaysOpen: false } }).success, 'schedule carries its time zone and weekly hours')
  t.ok(PriceSnapshot.safeParse({ prices: [row], stale: false, generatedAt: 1_795_000_000_123 }).success)
  t.ok(StatusRecord.safeParse({ status: 'ok', prices: { pairs: 80, stale: false, lastTickAt: 1 }, time: 2 }).success)
})

t.test('price row refuses near-misses', async (t) => {
  t.notOk(PriceRow.safeParse({ ...row, timestampSeconds: 1.5 }).success, 'fractional seconds')
  t.notOk(PriceRow.safeParse({ ...row, bid: '1' }).success, 'price as string')
  t.notOk(PriceRow.safeParse({ ...row, extra: 1 }).success, 'unknown field')
  t.notOk(PriceRow.safeParse({ ...row, schedule: { id: 0 } }).success, 'schedule without alwaysOpen')
  t.notOk(StatusRecord.safeParse({ status: 'down', prices: { pairs: 0, stale: true, lastTickAt: 0 }, time: 0 }).success)
})

t.test('stream frames in both directions', async (t) => {
  t.ok(ServerFrame.safeParse({ type: 'snapshot', seq: { 'BTC-USD': 4 }, data: [row] }).success)
  t.ok(ServerFrame.safeParse({ type: 'tick', seq: 5, data: row }).success)
  t.ok(ServerFrame.safeParse({ type: 'gap', dropped: 3 }).success)
  t.ok(ServerFrame.safeParse({ type: 'ack', for: 'subscribe', pairCount: null }).success)
  t.ok(ServerFrame.safeParse({ type: 'ack', for: 'unsubscribe', pairCount: 0 }).success)
  t.ok(ServerFrame.safeParse({ type: 'error', code: 'no_filter', message: 'x' }).success)
  t.notOk(ServerFrame.safeParse({ type: 'error', code: 'bogus', message: 'x' }).success)
  t.notOk(ServerFrame.safeParse({ type: 'gap', dropped: 0 }).success)
  t.notOk(ServerFrame.safeParse({ type: 'ack', for: 'ping', pairCount: 1 }).success)
  t.ok(ClientMessage.safeParse({ type: 'subscribe', pairs: ['BTC-USD'] }).success)
  t.notOk(ClientMessage.safeParse({ type: 'subscribe', pairs: 'BTC-USD' }).success)
  t.notOk(ClientMessage.safeParse({ type: 'ping', pairs: [] }).success)
})

t.test('resting order and limits query', async (t) => {
  const order = {
    id: '1',
    trader: address,
    isActive: true,
    isBuy: false,
    isDayTrade: false,
    limitType: 'STOP',
    openPrice: 3000,
    stopLossPrice: 0,
    takeProfitPrice: 0,
    collateral: 100,
    notionalInUsd: 1000,
    notionalInUnits: 0.33,
    leverage: 10,
    orderId: '7',
    initiatedAt: '1795000000',
    updatedAt: '1795000001',
    pair: { id: '1', from: 'ETH', to: 'USD' },
  }
  t.ok(RestingOrder.safeParse(order).success)
  t.notOk(RestingOrder.safeParse({ ...order, limitType: 'MARKET' }).success)
  t.notOk(RestingOrder.safeParse({ ...order, initiatedAt: 1795000000 }).success, 'initiatedAt is a decimal string')
  t.same(LimitsQuery.parse({ trader: address }), { trader: address, chainId: 42161, first: 100, skip: 0 })
  t.same(LimitsQuery.parse({ trader: address, chainId: '421614', first: '1000', skip: '5000', since: '17' }), {
    trader: address,
    chainId: 421614,
    first: 1000,
    skip: 5000,
    since: 17,
  })
  for (const [name, query] of Object.entries({
    'first 0': { trader: address, first: '0' },
    'first 1001': { trader: address, first: '1001' },
    'skip 5001': { trader: address, skip: '5001' },
    'skip -1': { trader: address, skip: '-1' },
    'unknown chain': { trader: address, chainId: '1' },
    'short address': { trader: '0x' + 'a'.repeat(39) },
    'address without 0x': { trader: 'a'.repeat(42) },
    'missing trader': {},
    'unknown parameter': { trader: address, page: '2' },
  }))
    t.notOk(LimitsQuery.safeParse(query).success, name)
})

t.test('onboarding request, state and response', async (t) => {
  const delegation = { delegate: address, nonce: '0', expiry: '1795001800', signature: '0x' + 'ab'.repeat(65) }
  const permit = { value: (2n ** 256n - 1n).toString(), nonce: '0', deadline: '1795001800', signature: '0x' + 'cd'.repeat(65) }
  t.ok(OnboardRequest.safeParse({ chainId: 42161, partner: address, delegation, permit }).success)
  t.ok(OnboardRequest.safeParse({ chainId: 421614, partner: address, delegation }).success)
  t.ok(
    OnboardRequest.safeParse({ chainId: 42161, partner: address, permit: { ...permit, signature: '0x' + '00'.repeat(200) } }).success,
    'contract-wallet permit bytes',
  )
  for (const [name, body] of Object.entries({
    'neither part': { chainId: 42161, partner: address },
    'unknown chain': { chainId: 1, partner: address, delegation },
    'chain as string': { chainId: '42161', partner: address, delegation },
    'nonce as number': { chainId: 42161, partner: address, delegation: { ...delegation, nonce: 0 } },
    'negative expiry': { chainId: 42161, partner: address, delegation: { ...delegation, expiry: '-1' } },
    'value above uint256': { chainId: 42161, partner: address, permit: { ...permit, value: (2n ** 256n).toString() } },
    'short delegation signature': { chainId: 42161, partner: address, delegation: { ...delegation, signature: '0x' + 'ab'.repeat(64) } },
    'odd-length permit signature': { chainId: 42161, partner: address, permit: { ...permit, signature: '0xabc' } },
    'bad partner': { chainId: 42161, partner: '0x123', delegation },
    'missing delegation field': { chainId: 42161, partner: address, delegation: { delegate: address, nonce: '0', expiry: '1' } },
  }))
    t.notOk(OnboardRequest.safeParse(body).success, name)
  t.ok(OnboardingState.safeParse({ onboarded: false, missing: ['allowance'], delegate: address, allowance: '0' }).success)
  t.notOk(OnboardingState.safeParse({ onboarded: false, missing: ['gas'], delegate: address, allowance: '0' }).success)
  const hash = '0x' + '1'.repeat(64)
  t.ok(OnboardResponse.safeParse({ status: 'reverted', userOpHash: hash, transactionHash: hash, reason: 'expired' }).success)
  t.notOk(OnboardResponse.safeParse({ status: 'pending', userOpHash: hash, transactionHash: hash }).success)
})

t.test('both error shapes', async (t) => {
  t.ok(FrameworkError.safeParse({ error: 'Bad Request', message: 'x', issues: [{}] }).success)
  t.notOk(FrameworkError.safeParse({ error: 'Bad Request' }).success)
  t.ok(UpstreamProxyError.safeParse({ error: 'upstream timed out' }).success)
  t.notOk(UpstreamProxyError.safeParse({ error: 'x', message: 'y' }).success)
})
