// The History API stand-in held to the behaviours its README lists, over raw HTTP: paths, shapes,
// `no_data`, refusals, the key, the rate limit, the faults; and its bars: deterministic, joined to the
// simulator's starting mids at the anchor, consistent between resolutions, absent while a market is shut.

import t from 'tap'
import { STARTING_MIDS } from '../../../services/ingestor/sources/simulated-markets.ts'
import { startHistoryStandin, type HistoryStandin } from '../server.ts'

/** Wednesday 2026-11-25 15:00 UTC: US stocks opened at 14:30 (09:30 New York). */
const NOW = Date.UTC(2026, 10, 25, 15) / 1000
const ANCHOR = NOW - 1800
const options = { anchorMs: ANCHOR * 1000, now: () => NOW * 1000 }

const standin = await startHistoryStandin(options)
t.teardown(() => standin.close())
const get = (path: string, init?: RequestInit) => fetch(`${standin.baseUrl}${path}`, init)
const history = (query: Record<string, string | number>, channel = 'fixed_rate@200ms') =>
  get(`/${channel}/history?${new URLSearchParams(Object.entries(query).map(([key, value]) => [key, String(value)]))}`)

t.test('history: the UDF columns, bars of the requested resolution between from and to, both inclusive', async (t) => {
  const response = await history({ symbol: 'Crypto.BTC/USD', resolution: '1', from: NOW - 300, to: NOW - 120 })
  t.equal(response.status, 200)
  t.match(response.headers.get('content-type'), /^application\/json/)
  const body = await response.json()
  t.strictSame(Object.keys(body), ['s', 't', 'o', 'h', 'l', 'c', 'v'])
  t.equal(body.s, 'ok')
  t.strictSame(body.t, [NOW - 300, NOW - 240, NOW - 180, NOW - 120])
  t.strictSame(body.v, [0, 0, 0, 0], 'no volume: zeros')
  for (let index = 0; index < 4; index++) {
    t.ok(body.h[index] >= Math.max(body.o[index], body.c[index]) && body.l[index] <= Math.min(body.o[index], body.c[index]))
  }
  t.equal(body.c[0], body.o[1], 'each minute opens where the last closed')
  t.ok(
    body.c.every((close: number) => Number.isInteger(close * 1e8)),
    'prices rounded to the feed exponent (-8 for crypto)',
  )
  const lower = await (await history({ symbol: 'crypto.btc/usd', resolution: '1', from: NOW - 300, to: NOW - 120 })).json()
  t.strictSame(lower, body, 'the symbol is read in any case')
})

t.test('the walk passes through the simulator starting mid at the anchor, and is the same for the same anchor and seed', async (t) => {
  const [before, after] = standin.bars('Crypto.BTC/USD', '1', ANCHOR - 60, ANCHOR)
  t.equal(before!.close, STARTING_MIDS['BTC-USD'], 'the minute before the anchor closes at the starting mid')
  t.equal(after!.open, STARTING_MIDS['BTC-USD'], 'the anchor minute opens at it')
  const again = await startHistoryStandin(options)
  t.teardown(() => again.close())
  t.strictSame(again.bars('Crypto.BTC/USD', '60', NOW - 30 * 86_400, NOW), standin.bars('Crypto.BTC/USD', '60', NOW - 30 * 86_400, NOW))
  const otherSeed = await startHistoryStandin({ ...options, seed: 2 })
  t.teardown(() => otherSeed.close())
  t.not(
    otherSeed.bars('Crypto.BTC/USD', '60', NOW - 86_400, NOW)[0]!.open,
    standin.bars('Crypto.BTC/USD', '60', NOW - 86_400, NOW)[0]!.open,
  )
})

t.test('wider bars are made of the minute bars of their period; days run 00:00 to 24:00 UTC', async (t) => {
  const minutes = standin.bars('Crypto.ETH/USD', '1', NOW - 7200, NOW - 3601)
  const hour = standin.bars('Crypto.ETH/USD', '60', NOW - 7200, NOW - 7200)[0]!
  t.strictSame(hour, {
    time: NOW - 7200,
    open: minutes[0]!.open,
    high: Math.max(...minutes.map((bar) => bar.high)),
    low: Math.min(...minutes.map((bar) => bar.low)),
    close: minutes[59]!.close,
  })
  const days = await (await history({ symbol: 'Crypto.ETH/USD', resolution: 'D', from: NOW - 3 * 86_400, to: NOW })).json()
  t.ok((days.t as number[]).every((time) => time % 86_400 === 0))
  t.equal(days.t.at(-1), NOW - 15 * 3600, 'the day in progress is served as it stands')
  const alias = await (await history({ symbol: 'Crypto.ETH/USD', resolution: '1D', from: NOW - 3 * 86_400, to: NOW })).json()
  t.strictSame(alias, days, '1D is D')
})

t.test("no bars while a market is shut, none after now, none before Pyth's first data: no_data with empty columns", async (t) => {
  const weekend = await history({
    symbol: 'Equity.US.AAPL/USD',
    resolution: '60',
    from: Date.UTC(2026, 10, 21) / 1000,
    to: Date.UTC(2026, 10, 23) / 1000 - 1,
  })
  t.strictSame(await weekend.json(), { s: 'no_data', t: [], o: [], h: [], l: [], c: [], v: [] })
  const today = await (await history({ symbol: 'Equity.US.AAPL/USD', resolution: '1', from: NOW - 3600, to: NOW + 3600 })).json()
  t.equal(today.t[0], Date.UTC(2026, 10, 25, 14, 30) / 1000, 'the first minute is the opening')
  t.equal(today.t.at(-1), NOW, 'the last is the minute in progress')
  const early = await (await history({ symbol: 'Crypto.BTC/USD', resolution: 'D', from: 1_700_000_000, to: 1_743_465_600 - 1 })).json()
  t.equal(early.s, 'no_data')
})

t.test('refusals: missing and malformed parameters, unknown resolutions, symbols and channels', async (t) => {
  const text = async (response: Response) => [response.status, await response.text()] as const
  t.strictSame(await text(await history({ resolution: '1', from: 1, to: 2 })), [
    400,
    'Failed to deserialize query string: missing field `symbol`',
  ])
  t.strictSame(await text(await history({ symbol: 'Crypto.BTC/USD', resolution: '1', from: 'x', to: 2 })), [
    400,
    'Failed to deserialize query string: from: invalid digit found in string',
  ])
  const [status, body] = await text(await history({ symbol: 'Crypto.BTC/USD', resolution: '3', from: 1, to: 2 }))
  t.equal(status, 400)
  t.match(body, /^Failed to deserialize query string: resolution: unknown variant `3`, expected one of `1`, `2`/)
  const unknown = await history({ symbol: 'Crypto.DOGE/EUR', resolution: '1', from: 1, to: 2 })
  t.equal(unknown.status, 404)
  t.strictSame(await unknown.json(), { error: 'Symbol not found: Crypto.DOGE/EUR' })
  const realTime = await history({ symbol: 'Equity.US.AAPL/USD', resolution: '1', from: NOW - 120, to: NOW }, 'real_time')
  t.equal(realTime.status, 404, 'a stock below its minimum channel')
  t.equal((await history({ symbol: 'Crypto.BTC/USD', resolution: '1', from: NOW - 120, to: NOW }, 'real_time')).status, 200)
  t.strictSame(await text(await history({ symbol: 'Crypto.BTC/USD', resolution: '1', from: 1, to: 2 }, 'fast')), [
    400,
    'Invalid URL: Cannot parse `fast` to a `Channel`',
  ])
  t.strictSame(await text(await get('/nothing')), [404, ''])
  t.equal((await get('/fixed_rate@200ms/history', { method: 'POST' })).status, 405)
})

t.test('the other paths: symbols list, symbol resolve, search, config, price, live', async (t) => {
  const list = await (await get('/symbols?asset_type=crypto')).json()
  t.ok(list.length > 5 && list.every((feed: { asset_type: string }) => feed.asset_type === 'crypto'))
  t.match(list[0], { pyth_lazer_id: 1, name: 'BTCUSD', symbol: 'Crypto.BTC/USD', exponent: -8, min_channel: 'real_time', state: 'stable' })
  t.match(await (await get('/fixed_rate@200ms/symbols?symbol=FX.EUR/USD')).json(), {
    ticker: 'FX.EUR/USD',
    pricescale: 100_000,
    timezone: 'Etc/UTC',
  })
  t.strictSame(
    (await (await get('/fixed_rate@200ms/search?query=eth&type=&exchange=&limit=5')).json()).map((item: { symbol: string }) => item.symbol),
    ['Crypto.ETH/USD'],
  )
  t.match(await (await get('/fixed_rate@200ms/config')).json(), { supports_search: true, supports_group_request: false })
  const prices = await (await get(`/fixed_rate@200ms/price?ids=1,2&timestamp=${(NOW - 60) * 1_000_000}`)).json()
  t.strictSame(
    prices.map((row: { price_feed_id: number; exponent: number }) => [row.price_feed_id, row.exponent]),
    [
      [1, -8],
      [2, -8],
    ],
  )
  t.equal(await (await get('/live')).text(), 'OK')
})

t.test('with a key: history and price need it as a bearer token; the rest stays open', async (t) => {
  const keyed = await startHistoryStandin({ ...options, apiKey: 'k3y' })
  t.teardown(() => keyed.close())
  const url = `${keyed.channelUrl()}/history?symbol=Crypto.BTC/USD&resolution=1&from=${NOW - 120}&to=${NOW}`
  t.equal((await fetch(url)).status, 401)
  t.equal((await fetch(url, { headers: { authorization: 'Bearer nope' } })).status, 403)
  t.equal((await fetch(url, { headers: { authorization: 'bearer k3y' } })).status, 200)
  t.equal((await fetch(`${keyed.baseUrl}/symbols`)).status, 200)
})

t.test('a rate limit when asked for one: past it, 429 until the penalty has passed', async (t) => {
  let clock = NOW * 1000
  const limited = await startHistoryStandin({
    ...options,
    now: () => clock,
    rateLimit: { requests: 2, windowMs: 10_000, penaltyMs: 60_000 },
  })
  t.teardown(() => limited.close())
  const live = () => fetch(`${limited.baseUrl}/live`).then((response) => response.status)
  t.strictSame([await live(), await live(), await live()], [200, 200, 429])
  clock += 30_000
  t.equal(await live(), 429, 'still paying')
  clock += 31_000
  t.equal(await live(), 200)
})

t.test('faults, on history only; each history request is recorded', async (t) => {
  const faulty: HistoryStandin = await startHistoryStandin(options)
  t.teardown(() => faulty.close())
  const url = `${faulty.channelUrl()}/history?symbol=Crypto.BTC/USD&resolution=1&from=${NOW - 120}&to=${NOW}`
  faulty.setFault('http-500')
  t.equal((await fetch(url)).status, 500)
  t.equal((await fetch(`${faulty.baseUrl}/live`)).status, 200, 'other paths answer')
  faulty.setFault('udf-error')
  t.strictSame(await (await fetch(url)).json(), { s: 'error', errmsg: 'internal error while reading history' })
  faulty.setFault('malformed')
  await t.rejects((await fetch(url)).json())
  faulty.setFault('reset')
  await t.rejects(fetch(url))
  faulty.setFault('hang')
  await t.rejects(fetch(url, { signal: AbortSignal.timeout(200) }), { name: 'TimeoutError' })
  t.equal(faulty.historyRequests.length, 5)
  t.equal(faulty.historyRequests[0]!.query.get('symbol'), 'Crypto.BTC/USD')
})
