// The TradingView datafeed (GET /v1/udf/*) over a memory store and the History API stand-in, held to the
// UDF specification's fields: the configuration, a symbol's info (session and time zone from its calendar,
// pricescale from its decimals), search, bars (the same candles as POST /v1/ohlc) and the server time.

import t from 'tap'
import { UdfConfig, UdfError, UdfHistory, UdfSearchResult, UdfSymbolInfo } from '../../../../schemas/udf.ts'
import { readJson } from '../../../../test/support/http.ts'
import { historyFixture, NOW } from '../../history/test/history-fixture.ts'

const fixture = await historyFixture(t)
const udf = (path: string) => fetch(`${fixture.server.baseUrl}/v1/udf${path}`)
const DAY = 86_400

t.test('config: the resolutions of our candles, search and the time, no group request or marks', async (t) => {
  const response = await udf('/config')
  t.equal(response.status, 200)
  t.equal(response.headers.get('x-ratelimit-limit'), '60', 'on the udf budget')
  const config = await readJson(response)
  t.ok(UdfConfig.safeParse(config).success)
  t.strictSame(config.supported_resolutions, ['1', '5', '15', '60', '240', '1D'])
  t.match(config, { supports_search: true, supports_group_request: false, supports_time: true })
})

t.test("symbols: a pair's session and time zone from its schedule, its pricescale from its decimals", async (t) => {
  const btc = await readJson(await udf('/symbols?symbol=BTC-USD'))
  t.ok(UdfSymbolInfo.safeParse(btc).success, 'every field of the schema, nothing else')
  t.match(btc, { name: 'BTC-USD', ticker: 'BTC-USD', session: '24x7', timezone: 'Etc/UTC', pricescale: 100, type: 'crypto', minmov: 1 })
  const aapl = await readJson(await udf('/symbols?symbol=AAPL-USD'))
  t.match(aapl, { session: '0930-1600:23456', timezone: 'America/New_York', type: 'stock', pricescale: 100 })
  t.ok(aapl.session_holidays.split(',').includes('20261126'), 'Thanksgiving closed')
  t.ok(aapl.corrections.split(';').includes('0930-1300:20261127'), 'the day after closes early')
  t.match(await readJson(await udf('/symbols?symbol=EUR-USD')), {
    session: '1700F-1700:23456',
    timezone: 'America/New_York',
    pricescale: 100_000,
    type: 'forex',
  })
  t.match(await readJson(await udf('/symbols?symbol=JP225-JPY')), { session: '0900-1130,1230-1530:23456', timezone: 'Asia/Tokyo' })
  t.match(await readJson(await udf('/symbols?symbol=USD-JPY')), { pricescale: 1000 })
  t.match(
    await readJson(await udf('/symbols?symbol=SPX-USD')),
    { name: 'US500-USD', ticker: 'US500-USD' },
    'a legacy spelling resolves to the symbol',
  )
  const unknown = await udf('/symbols?symbol=DOGE-USD&currencyCode=USD')
  t.equal(unknown.status, 404)
  const body = await readJson(unknown)
  t.ok(UdfError.safeParse(body).success)
  t.strictSame(body, { s: 'error', errmsg: 'unknown symbol "DOGE-USD"; symbols look like BTC-USD' })
})

t.test('search: by text in the symbol, type and exchange, at most limit', async (t) => {
  const found = await readJson(await udf('/search?query=USD&type=forex&exchange=&limit=3'))
  t.ok(UdfSearchResult.safeParse(found).success)
  t.strictSame(
    found.map((item: { symbol: string }) => item.symbol),
    ['EUR-USD', 'GBP-USD', 'USD-JPY'],
  )
  t.strictSame(await readJson(await udf('/search?query=btc&type=&exchange=VENUE&limit=30')), [
    { symbol: 'BTC-USD', full_name: 'VENUE:BTC-USD', description: 'BTC / USD', exchange: 'VENUE', ticker: 'BTC-USD', type: 'crypto' },
  ])
  t.strictSame(await readJson(await udf('/search?query=btc&type=&exchange=NYSE&limit=30')), [])
})

t.test('history: the columns of UDF, the same candles as POST /v1/ohlc; D is 1D', async (t) => {
  const query = `symbol=ETH-USD&resolution=60&from=${NOW - 2 * DAY}&to=${NOW}&countback=300`
  const bars = await readJson(await udf(`/history?${query}`))
  t.ok(UdfHistory.safeParse(bars).success)
  t.strictSame(Object.keys(bars), ['s', 't', 'o', 'h', 'l', 'c'])
  const { data } = await readJson(
    await fixture.ohlc({ pair: 'ETH-USD', fromTimestampSeconds: NOW - 2 * DAY, toTimestampSeconds: NOW, resolution: '60' }),
  )
  t.equal(data.length, 47)
  t.strictSame(bars, {
    s: 'ok',
    t: data.map((candle: { time: number }) => candle.time / 1000),
    o: data.map((candle: { open: number }) => candle.open),
    h: data.map((candle: { high: number }) => candle.high),
    l: data.map((candle: { low: number }) => candle.low),
    c: data.map((candle: { close: number }) => candle.close),
  })
  const daily = await readJson(await udf(`/history?symbol=ETH-USD&resolution=D&from=${NOW - 5 * DAY}&to=${NOW}`))
  t.strictSame(daily, await readJson(await udf(`/history?symbol=ETH-USD&resolution=1D&from=${NOW - 5 * DAY}&to=${NOW}`)))
  t.ok(daily.t.every((time: number) => time % DAY === 0))
})

t.test('history: no_data, with the latest bar before the range as nextTime', async (t) => {
  const saturday = Date.UTC(2026, 10, 21) / 1000
  t.equal((await udf(`/history?symbol=AAPL-USD&resolution=60&from=${saturday - 2 * DAY}&to=${saturday - DAY}`)).status, 200)
  const weekend = await readJson(await udf(`/history?symbol=AAPL-USD&resolution=60&from=${saturday}&to=${saturday + 2 * DAY}`))
  t.strictSame(weekend, { s: 'no_data', nextTime: Date.UTC(2026, 10, 20, 20) / 1000 }, "Friday's last hour, 15:00 New York")
  t.strictSame(await readJson(await udf(`/history?symbol=US500-USD&resolution=60&from=${saturday}&to=${saturday + DAY}`)), { s: 'no_data' })
})

t.test('history: refused parameters and a failing source answer in the UDF error shape', async (t) => {
  const cases: Array<[string, number, string]> = [
    [
      'symbol=BTC-USD&resolution=2&from=1&to=2',
      400,
      'invalid request: resolution: Invalid option: expected one of "1"|"5"|"15"|"60"|"240"|"1D"|"D"',
    ],
    ['symbol=BTC-USD&resolution=1&from=x&to=2', 400, 'invalid request: from: must be a whole number'],
    ['symbol=BTC-USD&resolution=1&from=5&to=5', 400, 'invalid request: to must be after from'],
    ['symbol=DOGE-USD&resolution=1&from=1&to=2', 404, 'unknown symbol "DOGE-USD"; symbols look like BTC-USD'],
  ]
  for (const [query, status, errmsg] of cases) {
    const response = await udf(`/history?${query}`)
    t.equal(response.status, status, query)
    t.strictSame(await readJson(response), { s: 'error', errmsg })
  }
  fixture.standin.setFault('http-500')
  const failing = await udf(`/history?symbol=XAG-USD&resolution=5&from=${NOW - DAY}&to=${NOW}`)
  fixture.standin.setFault('none')
  t.equal(failing.status, 502)
  t.strictSame(await readJson(failing), { s: 'error', errmsg: 'the history source answered HTTP 500; retry shortly' })
})

t.test('time: the server clock in Unix seconds, as plain text', async (t) => {
  const response = await udf('/time')
  t.equal(response.headers.get('content-type'), 'text/plain')
  t.equal(await response.text(), String(NOW))
})
