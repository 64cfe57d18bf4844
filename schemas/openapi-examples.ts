// Example values shown in the API documents. Each one is parsed by its zod schema in a test, and the
// document linter validates each against the schema it illustrates, so they cannot drift from the wire.
import type { DepthBook, Quote } from './depth.ts'
import type { FrameworkError, UpstreamProxyError } from './errors.ts'
import type { LimitsEnvelope } from './limits.ts'
import type { MarketHoursResponse } from './market-hours.ts'
import type { OhlcResponse } from './ohlc.ts'
import type { OnboardPending, OnboardRejection, OnboardRequest, OnboardResponse } from './onboarding.ts'
import type { OrdersEnvelope } from './orders.ts'
import type { PairsEnvelope } from './pair-list.ts'
import type { PriceRow, PriceSnapshot, StatusRecord } from './price.ts'
import type { TradesEnvelope } from './trades.ts'
import type { UdfConfig, UdfError, UdfHistory, UdfSearchResult, UdfSymbolInfo } from './udf.ts'

const NOW = 1_795_000_000
const TRADER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const HASH = `0x${'4e'.repeat(32)}`

export const priceRowExample: PriceRow = {
  feed_id: '0xe62df6c8b4a85fe1a67db44dc12de5db330f7ac66b72dc658afedf0f4a415b43',
  pair: 'BTC-USD',
  from: 'BTC',
  to: 'USD',
  bid: 94995.12,
  mid: 95000,
  ask: 95004.88,
  isMarketOpen: true,
  isDayTradingClosed: false,
  secondsToToggleIsDayTradingClosed: -1,
  timestampSeconds: NOW,
  schedule: {
    id: 0,
    alwaysOpen: true,
    timezone: 'UTC',
    openingHours: ['O', 'O', 'O', 'O', 'O', 'O', 'O'],
    dayTradingHours: { from: 'open+00:01', to: 'close-00:15' },
  },
}

export const stockRowExample: PriceRow = {
  feed_id: '0x49f6b65cb1de6b10eaf75e7c03ca029c306d0357e91b5311b175084a5ad55688',
  pair: 'AAPL-USD',
  from: 'AAPL',
  to: 'USD',
  bid: 229.88,
  mid: 229.9,
  ask: 229.92,
  isMarketOpen: true,
  isDayTradingClosed: false,
  secondsToToggleIsDayTradingClosed: 5400,
  timestampSeconds: NOW,
  schedule: {
    id: 5,
    alwaysOpen: false,
    timezone: 'America/New_York',
    openingHours: ['0930-1600', '0930-1600', '0930-1600', '0930-1600', '0930-1600', 'C', 'C'],
    dayTradingHours: { from: 'open+00:01', to: 'close-00:15' },
  },
}

export const priceSnapshotExample: PriceSnapshot = {
  prices: [priceRowExample, stockRowExample],
  stale: false,
  generatedAt: NOW * 1000 + 123,
}

export const statusExample: StatusRecord = {
  status: 'ok',
  prices: { pairs: 82, stale: false, lastTickAt: NOW * 1000 + 98 },
  time: NOW * 1000 + 120,
}

export const marketHoursExample: MarketHoursResponse = {
  at: NOW,
  schedules: [
    {
      id: 5,
      name: 'US stocks and ETFs (NYSE / Nasdaq)',
      alwaysOpen: false,
      timezone: 'America/New_York',
      openingHours: 'America/New_York;0930-1600,0930-1600,0930-1600,0930-1600,0930-1600,C,C;20261126/C,20261127/0930-1300',
      validFrom: '2026-01-01',
      validThrough: '2027-12-31',
    },
  ],
  pairs: [
    {
      pair: 'AAPL-USD',
      pairIndex: 57,
      scheduleId: 5,
      state: {
        isMarketOpen: true,
        isDayTradingClosed: false,
        secondsToToggleIsDayTradingClosed: 5400,
        nextOpen: NOW + 72_000,
        nextClose: NOW + 5400,
      },
    },
  ],
}

export const ohlcRequestExample = { pair: 'BTC-USD', fromTimestampSeconds: NOW - 300, toTimestampSeconds: NOW, resolution: '1' } as const

export const ohlcResponseExample: OhlcResponse = {
  data: [
    { from: 'BTC', to: 'USD', time: NOW - 300, open: 94950, high: 95010.5, low: 94940, close: 95002 },
    { from: 'BTC', to: 'USD', time: NOW - 240, open: 95002, high: 95020, low: 94990.25, close: 95000 },
  ],
  lastRequestTimestamp: NOW,
}

const pricedOff = { bid: 94995.12, mid: 95000, ask: 95004.88, timestampSeconds: NOW }

export const depthExample: DepthBook = {
  pair: 'BTC-USD',
  chainId: 42161,
  ...pricedOff,
  long: {
    availableNotionalUsd: 4_250_000,
    levels: [
      { notionalUsd: 10_000, fillPrice: 95009.63, impactPercent: 0.0101 },
      { notionalUsd: 100_000, fillPrice: 95052.1, impactPercent: 0.0548 },
    ],
  },
  short: {
    availableNotionalUsd: 3_900_000,
    levels: [
      { notionalUsd: 10_000, fillPrice: 94990.37, impactPercent: -0.0101 },
      { notionalUsd: 100_000, fillPrice: 94947.9, impactPercent: -0.0548 },
    ],
  },
}

export const quoteExample: Quote = {
  pair: 'BTC-USD',
  chainId: 42161,
  side: 'long',
  notionalUsd: 25_000,
  ...pricedOff,
  fillPrice: 95016.2,
  impactPercent: 0.017,
  availableNotionalUsd: 4_250_000,
}

const pairRef = { id: '0', from: 'BTC', to: 'USD' }

export const pairsExample: PairsEnvelope = {
  chainId: 42161,
  count: 1,
  pairs: [
    {
      id: '0',
      pair: 'BTC-USD',
      from: 'BTC',
      to: 'USD',
      feed: '0xe62df6c8b4a85fe1a67db44dc12de5db330f7ac66b72dc658afedf0f4a415b43',
      group: { id: '0', name: 'crypto', minLeverage: 1.1, maxLeverage: 100 },
      tradeable: true,
      longOI: 12.5,
      shortOI: 9.75,
      maxOI: 5_000_000,
      makerFeeP: 0.03,
      takerFeeP: 0.06,
      spreadP: 0.01,
      maxLeverage: 100,
      overnightMaxLeverage: 0,
      lastTradePrice: 95000,
      curFundingLong: 0.0001,
      curFundingShort: -0.0001,
      curRollover: 0,
    },
  ],
}

const listHead = { trader: TRADER, chainId: 42161, first: 100, skip: 0, count: 1 }

export const limitsExample: LimitsEnvelope = {
  ...listHead,
  limits: [
    {
      id: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8-0-3',
      trader: TRADER,
      isActive: true,
      isBuy: true,
      isDayTrade: false,
      limitType: 'LIMIT',
      openPrice: 90000,
      stopLossPrice: 85000,
      takeProfitPrice: 110000,
      collateral: 500,
      notionalInUsd: 5000,
      notionalInUnits: 0.0555,
      leverage: 10,
      orderId: '3',
      initiatedAt: String(NOW - 3600),
      updatedAt: String(NOW - 3600),
      pair: pairRef,
    },
  ],
}

export const tradesExample: TradesEnvelope = {
  ...listHead,
  trades: [
    {
      id: '17',
      trader: TRADER,
      pair: pairRef,
      index: 0,
      isBuy: true,
      collateral: 1000,
      leverage: 20,
      openPrice: 94000,
      stopLossPrice: 0,
      takeProfitPrice: 0,
      notionalInUsd: 20_000,
      notionalInUnits: 0.2128,
      funding: 1.25,
      rollover: 0.4,
      openedAt: String(NOW - 86_400),
    },
  ],
}

export const ordersExample: OrdersEnvelope = {
  ...listHead,
  orders: [
    {
      id: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8-41',
      trader: TRADER,
      pair: pairRef,
      tradeId: '17',
      isBuy: true,
      orderType: 'MARKET',
      orderAction: 'Open',
      price: 94000,
      priceAfterImpact: 94009.4,
      priceImpactPercent: 0.01,
      collateral: 1000,
      leverage: 20,
      notionalInUsd: 20_000,
      notionalInUnits: 0.2128,
      profitPercent: 0,
      totalProfitPercent: 0,
      amountSentToTrader: 0,
      rolloverFee: 0,
      fundingFee: 0,
      initiatedAt: String(NOW - 86_400),
      executedAt: String(NOW - 86_398),
      executedTx: HASH,
      isCancelled: false,
      cancelReason: null,
    },
  ],
}

export const onboardRequestExample: OnboardRequest = {
  chainId: 42161,
  partner: TRADER,
  delegation: {
    delegate: '0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0',
    nonce: '0',
    expiry: String(NOW + 1800),
    signature: `0x${'ab'.repeat(65)}`,
  },
  permit: {
    value: '115792089237316195423570985008687907853269984665640564039457584007913129639935',
    nonce: '0',
    deadline: String(NOW + 1800),
    signature: `0x${'cd'.repeat(65)}`,
  },
}

export const onboardResponseExample: OnboardResponse = {
  status: 'confirmed',
  userOpHash: `0x${'7a'.repeat(32)}`,
  transactionHash: HASH,
  state: {
    onboarded: true,
    missing: [],
    delegate: '0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0',
    allowance: '115792089237316195423570985008687907853269984665640564039457584007913129639935',
  },
}

export const onboardPendingExample: OnboardPending = { status: 'pending', id: `0x${'3c'.repeat(32)}`, userOpHash: `0x${'7a'.repeat(32)}` }

const rejection: OnboardRejection = {
  reason: 'ERC2612InvalidSigner',
  part: 'permit',
  error: 'ERC2612InvalidSigner',
  args: [TRADER, TRADER],
}
export const onboardRejectedExample: FrameworkError = {
  error: 'Bad Request',
  message: 'the onboarding cannot succeed as signed, so it was not sent: ERC2612InvalidSigner',
  issues: [{ code: 'custom', path: ['permit'], message: 'ERC2612InvalidSigner' }],
  details: rejection,
}

/** The framework error shape (spec 7), one example per status. */
export const frameworkErrorExamples = {
  400: {
    error: 'Bad Request',
    message: 'invalid query parameters',
    issues: [{ code: 'unrecognized_keys', keys: ['foo'], path: [], message: 'Unrecognized key: "foo"' }],
  },
  401: { error: 'Unauthorized', message: 'the delegation signature was not made by the partner' },
  403: { error: 'Forbidden', message: 'the partner is not allowlisted' },
  404: {
    error: 'Not Found',
    message: 'unknown pair "DOGE-USD"; symbols look like BTC-USD (see GET /v1/pairs)',
    details: { pair: 'DOGE-USD' },
  },
  413: { error: 'Payload Too Large', message: 'request body is larger than 65536 bytes', details: { limitBytes: 65536 } },
  426: { error: 'Upgrade Required', message: 'this is a WebSocket endpoint: connect with a WebSocket client' },
  429: {
    error: 'Too Many Requests',
    message: 'rate limit exceeded: retry in 7 seconds',
    details: { budget: 'prices', retryAfterSeconds: 7 },
  },
  500: { error: 'Internal Server Error', message: 'unexpected error' },
  502: { error: 'Bad Gateway', message: 'the indexed source did not answer in time', details: { chainId: 42161, reason: 'timeout' } },
  503: { error: 'Service Unavailable', message: 'USD-KRW is not tradeable yet', details: { pair: 'USD-KRW', pairId: 53, chainId: 42161 } },
} satisfies Record<number, FrameworkError>

export const noTicksYetExample = {
  error: 'Service Unavailable',
  message: 'the feed has delivered no ticks yet; retry shortly',
  stale: true,
} as const

export const upstreamProxyErrorExamples = {
  400: { error: 'toTimestampSeconds must be after fromTimestampSeconds' },
  404: { error: 'unknown pair DOGE-USD' },
  500: { error: 'unexpected error' },
  502: { error: 'the history source answered HTTP 500; retry shortly' },
  503: { error: "the history source's call budget is spent; retry in 12 s" },
  504: { error: 'the history source did not answer within 5000 ms; retry shortly' },
} satisfies Record<number, UpstreamProxyError>

export const udfConfigExample = {
  supported_resolutions: ['1', '5', '15', '60', '240', '1D'],
  supports_search: true,
  supports_group_request: false,
  supports_marks: false,
  supports_timescale_marks: false,
  supports_time: true,
  exchanges: [{ value: 'VENUE', name: 'VENUE', desc: 'The venue' }],
  symbols_types: [
    { name: 'All types', value: '' },
    { name: 'crypto', value: 'crypto' },
    { name: 'forex', value: 'forex' },
    { name: 'commodity', value: 'commodity' },
    { name: 'index', value: 'index' },
    { name: 'stock', value: 'stock' },
  ],
} satisfies UdfConfig

export const udfSymbolInfoExample = {
  name: 'AAPL-USD',
  ticker: 'AAPL-USD',
  full_name: 'VENUE:AAPL-USD',
  description: 'AAPL / USD',
  type: 'stock',
  exchange: 'VENUE',
  listed_exchange: 'VENUE',
  session: '0930-1600:23456',
  session_holidays: '20260101,20260119,20260216,20260403,20260525,20260619,20260703,20260907,20261126,20261225',
  corrections: '0930-1300:20261127;0930-1300:20261224',
  timezone: 'America/New_York',
  minmov: 1,
  pricescale: 100,
  format: 'price',
  has_intraday: true,
  has_daily: true,
  has_weekly_and_monthly: false,
  intraday_multipliers: ['1', '5', '15', '60', '240'],
  daily_multipliers: ['1'],
  supported_resolutions: ['1', '5', '15', '60', '240', '1D'],
  visible_plots_set: 'ohlc',
  data_status: 'streaming',
  currency_code: 'USD',
} satisfies UdfSymbolInfo

export const udfSearchExample = [
  { symbol: 'BTC-USD', full_name: 'VENUE:BTC-USD', description: 'BTC / USD', exchange: 'VENUE', ticker: 'BTC-USD', type: 'crypto' },
] satisfies UdfSearchResult

export const udfHistoryExample = {
  s: 'ok',
  t: [1767225600, 1767229200],
  o: [87012.5, 87120.25],
  h: [87200, 87350.75],
  l: [86950.5, 87080],
  c: [87120.25, 87301.5],
} satisfies UdfHistory

export const udfErrorExamples = {
  400: { s: 'error', errmsg: 'invalid request: resolution: Invalid option: expected one of "1"|"5"|"15"|"60"|"240"|"1D"|"D"' },
  404: { s: 'error', errmsg: 'unknown symbol "DOGE-USD"; symbols look like BTC-USD' },
  429: { s: 'error', errmsg: 'rate limit exceeded: retry in 7 seconds' },
  500: { s: 'error', errmsg: 'unexpected error' },
  502: { s: 'error', errmsg: 'the history source answered HTTP 500; retry shortly' },
  503: { s: 'error', errmsg: "the history source's call budget is spent; retry in 12 s" },
  504: { s: 'error', errmsg: 'the history source did not answer within 5000 ms; retry shortly' },
} satisfies Record<number, UdfError>
