// GET /v1/market-hours on the real HTTP kit. Each test draws on its own client IP's budget.

import t from 'tap'
import { MarketHoursResponse } from '../../../schemas/market-hours.ts'
import { readJson } from '../../../test/support/http.ts'
import { serveRoutes } from '../../../test/support/route-server.ts'
import { marketHoursRoutes } from '../routes.ts'
import { unix } from './fixtures/instants.ts'

const server = await serveRoutes(marketHoursRoutes())
t.teardown(server.close)

let nextClient = 1
/** A GET from a client IP of its own, so that no test spends another's budget. */
function clientOf() {
  const ip = `198.51.100.${nextClient++}`
  return (path: string, headers: Record<string, string> = {}) =>
    fetch(server.baseUrl + path, { headers: { 'x-forwarded-for': ip, ...headers } })
}

t.test('all schedules and every pair with its schedule, cacheable, on its own budget', async (t) => {
  const get = clientOf()
  const response = await get('/v1/market-hours')
  t.equal(response.status, 200)
  t.equal(response.headers.get('content-type'), 'application/json')
  t.equal(response.headers.get('cache-control'), 'public, max-age=3600')
  t.match(response.headers.get('etag'), /^"[A-Za-z0-9_-]{27}(-br|-gzip)?"$/, 'a strong tag; compressed answers carry their coding')
  t.equal(response.headers.get('x-ratelimit-limit'), '60')
  t.equal(response.headers.get('x-ratelimit-remaining'), '59')
  const body = await readJson(response)
  t.ok(MarketHoursResponse.safeParse(body).success, 'matches the schema')
  t.notOk('at' in body)
  t.same(
    body.schedules.map((schedule: { id: number }) => schedule.id),
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12],
  )
  t.strictSame(body.schedules[0], {
    id: 0,
    name: 'Crypto, around the clock',
    alwaysOpen: true,
    timezone: 'UTC',
    openingHours: 'UTC;O,O,O,O,O,O,O;',
    validFrom: null,
    validThrough: null,
  })
  const nyse = body.schedules[5]
  t.equal(nyse.timezone, 'America/New_York')
  t.equal(nyse.validFrom, '2026-01-01')
  t.equal(nyse.validThrough, '2027-12-31')
  t.match(nyse.openingHours, /^America\/New_York;0930-1600,0930-1600,0930-1600,0930-1600,0930-1600,C,C;.*2026-11-27\/0930-1300/)
  t.equal(body.pairs.length, 83)
  t.strictSame(body.pairs[0], { pair: 'BTC-USD', pairIndex: 0, scheduleId: 0 })
  const scheduleOf = Object.fromEntries(body.pairs.map((entry: { pair: string; scheduleId: number }) => [entry.pair, entry.scheduleId]))
  t.match(scheduleOf, {
    'ETH-USD': 0,
    'EUR-USD': 1,
    'XAU-USD': 2,
    'WTI-USD': 3,
    'US500-USD': 4,
    'NVDA-USD': 5,
    'USD-MXN': 6,
    'BRENT-USD': 7,
    'UK100-GBP': 8,
    'GER40-EUR': 9,
    'JP225-JPY': 10,
    'HK50-HKD': 11,
    'SKHY-USD': 12,
  })
})

t.test('?pair= narrows to that pair and its schedule', async (t) => {
  const body = await readJson(await clientOf()('/v1/market-hours?pair=NVDA-USD'))
  t.same(body.pairs, [{ pair: 'NVDA-USD', pairIndex: 18, scheduleId: 5 }])
  t.same(
    body.schedules.map((schedule: { id: number }) => schedule.id),
    [5],
  )
})

t.test('?pair= takes the legacy spellings of the pairs list and answers with the current symbol', async (t) => {
  const legacy: Array<[string, string]> = [
    ['CL-USD', 'WTI-USD'],
    ['HG-USD', 'XCU-USD'],
    ['SPX-USD', 'US500-USD'],
    ['NDX-USD', 'US100-USD'],
    ['DJI-USD', 'US30-USD'],
    ['DAX-EUR', 'GER40-EUR'],
    ['FTSE-GBP', 'UK100-GBP'],
    ['HSI-HKD', 'HK50-HKD'],
    ['NIK-JPY', 'JP225-JPY'],
  ]
  const at = unix('2026-11-27T12:00-05:00')
  for (const [spelling, symbol] of legacy) {
    const get = clientOf()
    const asLegacy = await get(`/v1/market-hours?pair=${spelling}&at=${at}`)
    t.equal(asLegacy.status, 200, spelling)
    const body = await readJson(asLegacy)
    t.equal(body.pairs.length, 1, spelling)
    t.equal(body.pairs[0].pair, symbol, `${spelling} is answered as ${symbol}`)
    t.strictSame(body, await readJson(await get(`/v1/market-hours?pair=${symbol}&at=${at}`)), `${spelling}: the answer for ${symbol}`)
  }
  const lowercase = await clientOf()('/v1/market-hours?pair=spx-usd')
  t.equal(lowercase.status, 400, 'spellings are exact, as on the other pair routes')
})

t.test('?at= on a Saturday: stocks, FX and metals closed until their Sunday or Monday open; crypto open', async (t) => {
  const at = unix('2026-11-21T12:00-05:00')
  const body = await readJson(await clientOf()(`/v1/market-hours?at=${at}`))
  t.ok(MarketHoursResponse.safeParse(body).success, 'matches the schema')
  t.equal(body.at, at)
  const stateOf = (pair: string) => body.pairs.find((entry: { pair: string }) => entry.pair === pair).state
  t.strictSame(stateOf('NVDA-USD'), {
    isMarketOpen: false,
    isDayTradingClosed: true,
    secondsToToggleIsDayTradingClosed: 163_860, // to Monday 09:31 New York
    nextOpen: unix('2026-11-23T09:30-05:00'),
    nextClose: unix('2026-11-23T16:00-05:00'),
  })
  t.strictSame(stateOf('EUR-USD'), {
    isMarketOpen: false,
    isDayTradingClosed: true,
    secondsToToggleIsDayTradingClosed: 104_460, // to Sunday 17:01
    nextOpen: unix('2026-11-22T17:00-05:00'),
    nextClose: unix('2026-11-27T17:00-05:00'),
  })
  t.strictSame(stateOf('XAU-USD'), {
    isMarketOpen: false,
    isDayTradingClosed: true,
    secondsToToggleIsDayTradingClosed: 108_060, // to Sunday 18:01
    nextOpen: unix('2026-11-22T18:00-05:00'),
    nextClose: unix('2026-11-23T17:00-05:00'),
  })
  t.strictSame(stateOf('BTC-USD'), {
    isMarketOpen: true,
    isDayTradingClosed: false,
    secondsToToggleIsDayTradingClosed: -1,
    nextOpen: null,
    nextClose: null,
  })
  t.equal(body.pairs.filter((entry: { state?: unknown }) => entry.state === undefined).length, 0, 'every pair has a state')
})

t.test('?at= on the NYSE half day 2026-11-27: day trading until 12:45, close at 13:00', async (t) => {
  const get = clientOf()
  const noon = await readJson(await get(`/v1/market-hours?pair=NVDA-USD&at=${unix('2026-11-27T12:00-05:00')}`))
  t.strictSame(noon.pairs[0].state, {
    isMarketOpen: true,
    isDayTradingClosed: false,
    secondsToToggleIsDayTradingClosed: 2_700,
    nextOpen: unix('2026-11-30T09:30-05:00'),
    nextClose: unix('2026-11-27T13:00-05:00'),
  })
  const cutOff = await readJson(await get(`/v1/market-hours?pair=NVDA-USD&at=${unix('2026-11-27T12:45-05:00')}`))
  t.strictSame(cutOff.pairs[0].state, {
    isMarketOpen: true,
    isDayTradingClosed: true,
    secondsToToggleIsDayTradingClosed: 247_560, // to Monday 09:31
    nextOpen: unix('2026-11-30T09:30-05:00'),
    nextClose: unix('2026-11-27T13:00-05:00'),
  })
})

t.test('ETag: the same answer keeps its tag; If-None-Match with it gives 304 and no body', async (t) => {
  const get = clientOf()
  const first = await get('/v1/market-hours')
  const etag = first.headers.get('etag')!
  await first.arrayBuffer()
  t.equal((await get('/v1/market-hours')).headers.get('etag'), etag, 'stable')
  for (const ifNoneMatch of [etag, `W/${etag}`, `"elsewhere", ${etag}`, '*']) {
    const revalidated = await get('/v1/market-hours', { 'if-none-match': ifNoneMatch })
    t.equal(revalidated.status, 304, ifNoneMatch)
    t.equal(revalidated.headers.get('etag'), etag)
    t.equal(revalidated.headers.get('cache-control'), 'public, max-age=3600')
    t.equal(await revalidated.text(), '')
  }
  const stale = await get('/v1/market-hours', { 'if-none-match': '"elsewhere"' })
  t.equal(stale.status, 200)
  t.equal((await readJson(stale)).pairs.length, 83)
  const narrowed = await get('/v1/market-hours?pair=NVDA-USD')
  await narrowed.arrayBuffer()
  t.not(narrowed.headers.get('etag'), etag, 'another answer, another tag')
  const at = unix('2026-11-27T12:00-05:00')
  const [one, two] = [await get(`/v1/market-hours?at=${at}`), await get(`/v1/market-hours?at=${at}`)]
  await Promise.all([one.arrayBuffer(), two.arrayBuffer()])
  t.equal(one.headers.get('etag'), two.headers.get('etag'), 'an answer for an instant never changes')
})

t.test('an instant past the calendar data: 400 naming the pair, the schedule and the covered span', async (t) => {
  const get = clientOf()
  const at = unix('2028-01-03T10:00-05:00')
  const stocks = await get(`/v1/market-hours?pair=NVDA-USD&at=${at}`)
  t.equal(stocks.status, 400)
  t.equal(stocks.headers.get('cache-control'), null)
  t.strictSame(await readJson(stocks), {
    error: 'Bad Request',
    message:
      'at 2028-01-03T15:00:00Z is outside the market-hours data of NVDA-USD (schedule 5, US stocks and ETFs (NYSE / Nasdaq)), ' +
      'which answers from 2026-01-01T05:00:00Z until 2027-12-31T14:30:00Z',
    details: {
      at,
      pair: 'NVDA-USD',
      scheduleId: 5,
      answersFrom: unix('2026-01-01T00:00-05:00'),
      answersUntil: unix('2027-12-31T09:30-05:00'),
    },
  })
  // the whole list is refused at the first pair without data (spot FX stops at its last Sunday open)
  const all = await readJson(await get(`/v1/market-hours?at=${at}`))
  t.match(all.details, { pair: 'EUR-USD', scheduleId: 1, answersUntil: unix('2027-12-26T17:00-05:00') })
  const before = await get(`/v1/market-hours?pair=NVDA-USD&at=${unix('2025-12-31T12:00-05:00')}`)
  t.equal(before.status, 400)
  // crypto has no horizon
  const crypto = await readJson(await get(`/v1/market-hours?pair=BTC-USD&at=${at}`))
  t.strictSame(crypto.pairs[0].state, {
    isMarketOpen: true,
    isDayTradingClosed: false,
    secondsToToggleIsDayTradingClosed: -1,
    nextOpen: null,
    nextClose: null,
  })
})

t.test('invalid parameters: 400 with the raw issues', async (t) => {
  const get = clientOf()
  const cases: Array<[string, string, string]> = [
    ['at=tomorrow', 'at', 'must be Unix seconds as a whole number'],
    ['at=-60', 'at', 'must be Unix seconds as a whole number'],
    ['at=1795000000.5', 'at', 'must be Unix seconds as a whole number'],
    ['at=253402300800', 'at', 'must be no later than 9999-12-31T23:59:59Z'],
    ['pair=DOGE-USD', 'pair', 'must be a listed pair symbol such as BTC-USD'],
  ]
  for (const [query, field, message] of cases) {
    const response = await get(`/v1/market-hours?${query}`)
    t.equal(response.status, 400, query)
    const body = await readJson(response)
    t.equal(body.error, 'Bad Request')
    t.equal(body.message, 'invalid market-hours parameters')
    t.match(body.issues, [{ path: [field], message }], query)
  }
  const unknown = await readJson(await get('/v1/market-hours?when=now'))
  t.match(unknown.issues, [{ code: 'unrecognized_keys', keys: ['when'] }])
})
