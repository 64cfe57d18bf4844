import t from 'tap'
import { readJson } from '../../../test/support/http.ts'
import { PriceSnapshot, StatusRecord } from '../../../schemas/price.ts'
import { NoTicksYetError } from '../../../schemas/errors.ts'
import { startTestEdge } from '../../../test/support/edge-harness.ts'
import { priceRow, rowBytes } from '../../../test/support/price-rows.ts'
import { waitFor } from '../../../test/support/wait.ts'

t.test('before the first tick: 503 with stale, status degraded', async (t) => {
  const edge = await startTestEdge()
  t.teardown(edge.stop)
  const response = await fetch(`${edge.baseUrl}/v1/prices`)
  t.equal(response.status, 503)
  t.equal(response.headers.get('retry-after'), '1')
  const body = await readJson(response)
  t.ok(NoTicksYetError.safeParse(body).success)
  t.same(body, { error: 'Service Unavailable', message: 'the feed has delivered no ticks yet; retry shortly', stale: true })
  const status = await readJson(await fetch(`${edge.baseUrl}/v1/status`))
  t.same(status.prices, { pairs: 0, stale: true, lastTickAt: 0 })
  t.equal(status.status, 'degraded')
  t.equal((await fetch(`${edge.baseUrl}/v1/prices/BTC-USD`)).status, 503)
})

t.test('snapshot: the last row per pair in pair-id order, as published bytes', async (t) => {
  const edge = await startTestEdge()
  t.teardown(edge.stop)
  const eth = priceRow('ETH-USD', { mid: 3400, bid: 3399, ask: 3401 })
  const btcOld = priceRow('BTC-USD', { mid: 1 })
  const btc = priceRow('BTC-USD', { mid: 95000, bid: 94990, ask: 95010 })
  for (const row of [eth, btcOld, btc]) edge.bus.publishTick(row.pair, rowBytes(row))
  const before = Date.now()
  const response = await waitFor(async () => {
    const attempt = await fetch(`${edge.baseUrl}/v1/prices`)
    const body = attempt.status === 200 ? await readJson(attempt) : undefined
    return body?.prices[0]?.mid === 95000 ? { attempt, body } : undefined
  })
  t.equal(response.attempt.headers.get('content-type'), 'application/json')
  t.ok(PriceSnapshot.safeParse(response.body).success, 'matches spec 2.2')
  t.same(response.body.prices, [btc, eth])
  t.equal(response.body.stale, false)
  t.ok(response.body.generatedAt >= before - 1000 && response.body.generatedAt <= Date.now())
})

t.test('one pair: its row, by symbol or legacy spelling; unknown symbol 404; known pair without a row 404', async (t) => {
  const edge = await startTestEdge()
  t.teardown(edge.stop)
  const xau = priceRow('XAU-USD', { mid: 4050, bid: 4049, ask: 4051 })
  edge.bus.publishTick(xau.pair, rowBytes(xau))
  await waitFor(async () => (await fetch(`${edge.baseUrl}/v1/prices/XAU-USD`)).status === 200)
  t.same(await readJson(await fetch(`${edge.baseUrl}/v1/prices/XAU-USD`)), xau)
  const unknown = await fetch(`${edge.baseUrl}/v1/prices/DOGE-USD`)
  t.equal(unknown.status, 404)
  t.same(await readJson(unknown), {
    error: 'Not Found',
    message: 'unknown pair "DOGE-USD"; symbols look like BTC-USD (see GET /v1/pairs)',
    details: { pair: 'DOGE-USD' },
  })
  const us500 = priceRow('US500-USD', { mid: 6800, bid: 6799.5, ask: 6800.5 })
  edge.bus.publishTick(us500.pair, rowBytes(us500))
  await waitFor(async () => (await fetch(`${edge.baseUrl}/v1/prices/US500-USD`)).status === 200)
  const legacy = await fetch(`${edge.baseUrl}/v1/prices/SPX-USD`)
  t.equal(legacy.status, 200, 'the legacy spelling names the same pair')
  t.strictSame(await readJson(legacy), us500, 'answered under the current symbol')
  const silent = await fetch(`${edge.baseUrl}/v1/prices/EUR-USD`)
  t.equal(silent.status, 404)
  t.same((await readJson(silent)).details, { pair: 'EUR-USD' })
})

t.test('parameters are refused with 400 and issues', async (t) => {
  const edge = await startTestEdge()
  t.teardown(edge.stop)
  const response = await fetch(`${edge.baseUrl}/v1/prices?pair=BTC-USD`)
  t.equal(response.status, 400)
  const body = await readJson(response)
  t.equal(body.error, 'Bad Request')
  t.equal(body.issues[0].code, 'unrecognized_keys')
  t.same(body.issues[0].keys, ['pair'])
})

t.test('status: ok while one pair trades, degraded past the window; a quiet pair keeps its row', async (t) => {
  // a 2 s window: a machine that pauses the test's process for half a second does not make a tick look old
  const edge = await startTestEdge({ env: { STALE_AFTER_MS: '2000' } })
  t.teardown(edge.stop)
  const quiet = priceRow('EUR-USD', { timestampSeconds: 1_700_000_000 })
  edge.bus.publishTick(quiet.pair, rowBytes(quiet))
  const tickBtc = () => edge.bus.publishTick('BTC-USD', rowBytes(priceRow('BTC-USD')))
  const firstTickAt = Date.now()
  tickBtc()
  const ok = await waitFor(async () => {
    const status = await readJson(await fetch(`${edge.baseUrl}/v1/status`))
    return status.prices.pairs === 2 ? status : undefined
  })
  t.ok(StatusRecord.safeParse(ok).success)
  t.equal(ok.status, 'ok')
  t.equal(ok.prices.stale, false)
  t.ok(ok.prices.lastTickAt >= firstTickAt && ok.prices.lastTickAt <= Date.now(), 'the tick just published')
  // BTC keeps ticking: the verdict stays ok although EUR-USD has been quiet for years
  // ten rounds paced 250 ms apart span more than the 2 s window (a fixed count, so the assertions are too)
  const verdicts: string[] = []
  for (let round = 0; round < 10; round++) {
    tickBtc()
    verdicts.push((await readJson(await fetch(`${edge.baseUrl}/v1/status`))).status)
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  t.same(verdicts, Array(10).fill('ok'), 'every answer while BTC ticks across the window is ok')
  // the feed falls silent: degraded after the window, rows kept with their old timestamps
  const degraded = await waitFor(
    async () => {
      const status = await readJson(await fetch(`${edge.baseUrl}/v1/status`))
      return status.status === 'degraded' ? status : undefined
    },
    // asked every 250 ms: faster, the asks would spend the address's request budget before the window ends
    { what: 'degraded after the window', intervalMs: 250 },
  )
  t.equal(degraded.prices.stale, true)
  const statusResponse = await fetch(`${edge.baseUrl}/v1/status`)
  t.equal(statusResponse.status, 200, 'status always answers 200')
  const snapshot = await readJson(await fetch(`${edge.baseUrl}/v1/prices`))
  t.equal(snapshot.stale, true)
  t.same(
    snapshot.prices.map((row: { pair: string }) => row.pair),
    ['BTC-USD', 'EUR-USD'],
  )
  t.equal(snapshot.prices[1].timestampSeconds, 1_700_000_000)
})

t.test('the 101st GET /v1/prices from one IP within 10 s is a 429 with every header', async (t) => {
  const edge = await startTestEdge()
  t.teardown(edge.stop)
  edge.bus.publishTick('BTC-USD', rowBytes(priceRow('BTC-USD')))
  await waitFor(async () => (await fetch(`${edge.baseUrl}/v1/status`)).ok)
  for (let n = 1; n <= 100; n++) {
    const response = await fetch(`${edge.baseUrl}/v1/prices`)
    if (response.status !== 200) t.fail(`request ${n} answered ${response.status}`)
    t.equal(response.headers.get('x-ratelimit-remaining'), String(100 - n))
  }
  const refused = await fetch(`${edge.baseUrl}/v1/prices`)
  t.equal(refused.status, 429)
  t.equal(refused.headers.get('x-ratelimit-limit'), '100')
  t.equal(refused.headers.get('x-ratelimit-remaining'), '0')
  const retryAfter = refused.headers.get('retry-after')!
  t.ok(Number(retryAfter) >= 1 && Number(retryAfter) <= 10)
  t.equal(refused.headers.get('x-ratelimit-reset'), retryAfter)
  t.match(refused.headers.get('x-request-id'), /^[0-9a-f-]{36}$/)
  t.equal((await readJson(refused)).message, `rate limit exceeded: retry in ${retryAfter} seconds`)
  // the single-pair route shares the budget; status has its own
  t.equal((await fetch(`${edge.baseUrl}/v1/prices/BTC-USD`)).status, 429)
  t.equal((await fetch(`${edge.baseUrl}/v1/status`)).status, 200)
})
