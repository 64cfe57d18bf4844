// POST /v1/ohlc on the real HTTP kit, over a memory store filled directly.

import t from 'tap'
import { Redis } from 'ioredis'
import { OhlcResponse } from '../../../schemas/ohlc.ts'
import { UpstreamProxyError } from '../../../schemas/errors.ts'
import { readJson } from '../../../test/support/http.ts'
import { serveRoutes } from '../../../test/support/route-server.ts'
import { freePort } from '../../../test/support/servers.ts'
import type { Candle } from '../candle.ts'
import { memoryCandleStore } from '../memory-candle-store.ts'
import { redisCandleStore } from '../redis-candle-store.ts'
import { ohlcRoutes } from '../routes.ts'

/** Monday 2026-03-02 00:00 UTC. */
const DAY = Date.UTC(2026, 2, 2) / 1000
const minuteCandle = (minute: number, price: number): Candle => ({
  time: DAY + 60 * minute,
  open: price,
  openAt: DAY + 60 * minute,
  high: price + 1,
  low: price - 1,
  close: price + 0.5,
  closeAt: DAY + 60 * minute + 59,
})
// minutes 0, 1, 2, 5 and 7: minutes 3, 4 and 6 had no ticks
const MINUTES = [minuteCandle(0, 100), minuteCandle(1, 101), minuteCandle(2, 102), minuteCandle(5, 105), minuteCandle(7, 107)]
const store = memoryCandleStore({ keepPerResolution: 1000 })
await store.merge('BTC-USD', MINUTES)
await store.merge('US500-USD', MINUTES)

const server = await serveRoutes(ohlcRoutes({ store }))
const pagingServer = await serveRoutes(ohlcRoutes({ store }, { maxCandlesPerResponse: 2 }))
t.teardown(() => {
  server.close()
  pagingServer.close()
})

let nextClient = 1
const postOhlc = (body: unknown, baseUrl = server.baseUrl) =>
  fetch(`${baseUrl}/v1/ohlc`, {
    method: 'POST',
    body: typeof body === 'string' ? body : JSON.stringify(body),
    headers: { 'content-type': 'application/json', 'x-forwarded-for': `203.0.113.${nextClient++}` },
  })
const wire = ({ time, open, high, low, close }: Candle) => ({ from: 'BTC', to: 'USD', time: time * 1000, open, high, low, close })

t.test('one-minute candles of a range, with the pair as base and quote, on the ohlc budget', async (t) => {
  const request = { pair: 'BTC-USD', fromTimestampSeconds: DAY, toTimestampSeconds: DAY + 600, resolution: '1' }
  const response = await postOhlc(request)
  t.equal(response.status, 200)
  t.equal(response.headers.get('x-ratelimit-limit'), '60')
  const body = await readJson(response)
  t.ok(OhlcResponse.safeParse(body).success, 'matches the schema')
  t.strictSame(body, { data: MINUTES.map(wire), lastRequestTimestamp: DAY + 600 })
})

t.test("a legacy spelling from the pairs list names the same pair; the candles name it by its symbol's assets", async (t) => {
  const request = { pair: 'SPX-USD', fromTimestampSeconds: DAY, toTimestampSeconds: DAY + 600, resolution: '1' }
  const body = await readJson(await postOhlc(request))
  t.strictSame(body, { data: MINUTES.map((candle) => ({ ...wire(candle), from: 'US500', to: 'USD' })), lastRequestTimestamp: DAY + 600 })
})

t.test('wider resolutions; minutes may be sent as a number; from widens to the start of its period', async (t) => {
  const body = await readJson(
    await postOhlc({ pair: 'BTC-USD', fromTimestampSeconds: DAY + 61, toTimestampSeconds: DAY + 600, resolution: 5 }),
  )
  t.strictSame(body, {
    data: [
      // candle times in milliseconds
      { from: 'BTC', to: 'USD', time: DAY * 1000, open: 100, high: 103, low: 99, close: 102.5 },
      { from: 'BTC', to: 'USD', time: (DAY + 300) * 1000, open: 105, high: 108, low: 104, close: 107.5 },
    ],
    lastRequestTimestamp: DAY + 600,
  })
  const daily = await readJson(
    await postOhlc({ pair: 'BTC-USD', fromTimestampSeconds: DAY - 86_400, toTimestampSeconds: DAY + 86_400, resolution: '1D' }),
  )
  t.strictSame(daily.data, [{ from: 'BTC', to: 'USD', time: DAY * 1000, open: 100, high: 108, low: 99, close: 107.5 }])
  const before = await readJson(
    await postOhlc({ pair: 'BTC-USD', fromTimestampSeconds: DAY - 600, toTimestampSeconds: DAY, resolution: '60' }),
  )
  t.strictSame(before, { data: [], lastRequestTimestamp: DAY }, 'to is exclusive')
})

t.test('long ranges page: lastRequestTimestamp is where the next call starts', async (t) => {
  const pages: unknown[] = []
  let from = DAY
  const to = DAY + 3600
  for (;;) {
    const page = await readJson(
      await postOhlc({ pair: 'BTC-USD', fromTimestampSeconds: from, toTimestampSeconds: to, resolution: '1' }, pagingServer.baseUrl),
    )
    pages.push(page)
    if (page.lastRequestTimestamp >= to) break
    from = page.lastRequestTimestamp
  }
  t.strictSame(pages, [
    { data: MINUTES.slice(0, 2).map(wire), lastRequestTimestamp: MINUTES[2]!.time },
    { data: MINUTES.slice(2, 4).map(wire), lastRequestTimestamp: MINUTES[4]!.time },
    { data: MINUTES.slice(4).map(wire), lastRequestTimestamp: to },
  ])
})

t.test('invalid requests: 400 in the upstream-proxy shape', async (t) => {
  const valid = { pair: 'BTC-USD', fromTimestampSeconds: DAY, toTimestampSeconds: DAY + 600, resolution: '1' }
  const cases: Array<[unknown, string]> = [
    ['{"pair":', 'invalid OHLC request: the body must be a JSON object'],
    ['', 'invalid OHLC request: the body must be a JSON object'],
    [{ ...valid, resolution: '2' }, 'invalid OHLC request: resolution: must be one of 1, 5, 15, 60, 240, 1D'],
    [{ ...valid, toTimestampSeconds: DAY }, 'invalid OHLC request: toTimestampSeconds: must be after fromTimestampSeconds'],
    [{ ...valid, fromTimestampSeconds: 1.5 }, 'invalid OHLC request: fromTimestampSeconds: must be whole Unix seconds'],
    [
      { pair: 'BTC-USD', resolution: '1' },
      'invalid OHLC request: fromTimestampSeconds: Invalid input: expected number, received undefined; toTimestampSeconds: Invalid input: expected number, received undefined',
    ],
    [{ ...valid, countBack: 300 }, 'invalid OHLC request: body: Unrecognized key: "countBack"'],
    [[valid], 'invalid OHLC request: body: Invalid input: expected object, received array'],
  ]
  for (const [body, error] of cases) {
    const response = await postOhlc(body)
    t.equal(response.status, 400, error)
    const answer = await readJson(response)
    t.ok(UpstreamProxyError.safeParse(answer).success)
    t.strictSame(answer, { error })
  }
})

t.test('an unknown pair: 404 in the upstream-proxy shape', async (t) => {
  const response = await postOhlc({ pair: 'DOGE-USD', fromTimestampSeconds: DAY, toTimestampSeconds: DAY + 60, resolution: '1' })
  t.equal(response.status, 404)
  t.strictSame(await readJson(response), { error: 'unknown pair "DOGE-USD"; symbols look like BTC-USD' })
})

t.test('the store out of reach: 502 in the upstream-proxy shape', async (t) => {
  const redis = new Redis(`redis://127.0.0.1:${await freePort()}`, { lazyConnect: true })
  t.teardown(() => redis.disconnect())
  const unreachable = await serveRoutes(ohlcRoutes({ store: redisCandleStore({ redis, keyPrefix: 'gone', keepPerResolution: 10 }) }))
  t.teardown(unreachable.close)
  const response = await postOhlc(
    { pair: 'BTC-USD', fromTimestampSeconds: DAY, toTimestampSeconds: DAY + 60, resolution: '1' },
    unreachable.baseUrl,
  )
  t.equal(response.status, 502)
  t.strictSame(await readJson(response), { error: 'the candle store cannot be reached; retry shortly' })
})
