// The UDF history client against answers a source might give: what it sends, and which answers are bars,
// none, or a failure of which kind.

import t from 'tap'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Secret } from '../../../../kit/secret.ts'
import { HistoryCallFailure, udfHistoryClient } from '../udf-history-client.ts'

const HOUR = 1_795_000_000 - (1_795_000_000 % 3600)
let answer = { status: 200, body: '' }
const seen: URL[] = []
const server = createServer((request, response) => {
  seen.push(new URL(request.url!, 'http://source'))
  response.writeHead(answer.status, { 'content-type': 'application/json' })
  response.end(answer.body)
})
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
t.teardown(() => server.close())
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/fixed_rate@200ms/`
const client = udfHistoryClient({ url, apiKey: new Secret('k') })
const bars = (body: unknown, status = 200) => {
  answer = { status, body: typeof body === 'string' ? body : JSON.stringify(body) }
  return client.bars('Crypto.BTC/USD', '60', HOUR, HOUR + 7200, AbortSignal.timeout(2000))
}
const columns = (t: number[], o: number[], h: number[], l: number[], c: number[]) => ({ s: 'ok', t, o, h, l, c, v: t.map(() => 0) })

t.test('asks {url}/history for [from, to) as UDF spells it, and reads the columns as bars', async (t) => {
  t.strictSame(await bars(columns([HOUR, HOUR + 3600], [10, 11], [12, 13], [9, 10], [11, 12])), [
    { time: HOUR, open: 10, high: 12, low: 9, close: 11 },
    { time: HOUR + 3600, open: 11, high: 13, low: 10, close: 12 },
  ])
  const asked = seen.at(-1)!
  t.equal(asked.pathname, '/v1/fixed_rate@200ms/history')
  t.strictSame(Object.fromEntries(asked.searchParams), {
    symbol: 'Crypto.BTC/USD',
    resolution: '60',
    from: String(HOUR),
    to: String(HOUR + 7199),
  })
  t.strictSame(await bars({ s: 'ok', t: [], o: [], h: [], l: [], c: [] }), [])
  t.strictSame(await bars({ s: 'no_data', nextTime: HOUR - 3600 }), [], 'no_data is no bars')
  t.strictSame(
    await bars(columns([HOUR - 3600, HOUR, HOUR + 7200], [1, 2, 3], [1, 2, 3], [1, 2, 3], [1, 2, 3])),
    [{ time: HOUR, open: 2, high: 2, low: 2, close: 2 }],
    'bars outside the range are left out',
  )
})

t.test('failures, each of its kind', async (t) => {
  const cases: Array<[unknown, number, string, string]> = [
    [{ s: 'error', errmsg: 'no such symbol' }, 200, 'source_error', 'refused: no such symbol'],
    ['{"s":', 200, 'invalid_response', 'answered something other than JSON'],
    [{ s: 'ok', t: [HOUR] }, 200, 'invalid_response', 'answered something other than UDF history'],
    [columns([HOUR], [1, 2], [1], [1], [1]), 200, 'invalid_response', 'answered columns of different lengths'],
    [columns([HOUR + 60], [1], [1], [1], [1]), 200, 'invalid_response', `answered a bar at ${HOUR + 60}, not at a 60 period start`],
    [
      columns([HOUR], [1], [0.5], [1], [1]),
      200,
      'invalid_response',
      `answered a bar at ${HOUR} whose high and low do not hold its open and close`,
    ],
    ['Internal Server Error', 500, 'http_error', 'answered HTTP 500'],
  ]
  for (const [body, status, kind, message] of cases) {
    const failure = await bars(body, status).then(
      () => undefined,
      (error: unknown) => error,
    )
    t.ok(failure instanceof HistoryCallFailure, message)
    t.match(failure, { kind, message })
  }
})

t.test('a source out of reach, and one too slow for the signal', async (t) => {
  const failureOf = (promise: Promise<unknown>) =>
    promise.then(
      () => undefined,
      (error: unknown) => error,
    )
  const gone = udfHistoryClient({ url: 'http://127.0.0.1:9/v1/x', apiKey: undefined })
  t.match(await failureOf(gone.bars('Crypto.BTC/USD', '1', HOUR, HOUR + 60, AbortSignal.timeout(2000))), { kind: 'network_error' })
  const silent = createServer(() => undefined)
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve))
  t.teardown(() => {
    silent.closeAllConnections()
    silent.close()
  })
  const slow = udfHistoryClient({ url: `http://127.0.0.1:${(silent.address() as AddressInfo).port}`, apiKey: undefined })
  t.match(await failureOf(slow.bars('Crypto.BTC/USD', '1', HOUR, HOUR + 60, AbortSignal.timeout(200))), {
    kind: 'timeout',
    message: 'did not answer in time',
  })
})
