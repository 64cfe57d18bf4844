// The venue's C# connector against a live service (the compiled build's ingestor and edge, the GraphQL
// stand-in started here as its indexed source, a replayed feed that ticks every pair whatever the hour, so
// markets closed now still tick): every REST
// answer and stream frame it reads decodes with its declared types, and its own flows work: markets
// named in the pairs list's legacy spelling for candles and subscriptions, ticks matched by the current
// symbol, a reconnect that resubscribes everything, and error texts read from `message`, then `error`.
// What the connector does is in test/support/stocksharp-connector.ts, each part with its source line.
import t, { type Test } from 'tap'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { z } from 'zod'
import { PAIRS } from '../../schemas/pairs.ts'
import { startIndexerStandin } from '../../standins/subgraph/index.ts'
import { indexedSourceAt, startServiceProcess } from '../support/service-process.ts'
import { openStream, type TestStreamClient } from '../support/stream-clients.ts'
import { waitFor } from '../support/wait.ts'
import {
  CONNECTOR_HTTP_HEADERS,
  connectorErrorText,
  connectorMarket,
  ohlcRequestBody,
  OstiumErrorResponse,
  OstiumOhlcResponse,
  OstiumPrice,
  OstiumPricesResponse,
  OstiumPriceSnapshot,
  OstiumPriceSocketError,
  OstiumPriceSocketHeader,
  OstiumPriceTick,
  subscriptionMessage,
} from '../support/stocksharp-connector.ts'

// one tick of every listed pair, 20 ms apart, replayed in a loop
const replayFolder = mkdtempSync(join(tmpdir(), 'connector-replay-'))
t.teardown(() => rmSync(replayFolder, { recursive: true, force: true }))
const replayFile = join(replayFolder, 'ticks.jsonl')
const recordedAt = Math.floor(Date.now() / 1000)
writeFileSync(
  replayFile,
  PAIRS.map((pair) =>
    JSON.stringify({ pair: pair.symbol, bid: 99.5, mid: 100, ask: 100.5, timestampSeconds: recordedAt, atMs: pair.id * 20 }),
  ).join('\n'),
)
const indexer = await startIndexerStandin()
t.teardown(() => indexer.close())
const service = startServiceProcess(['edge', 'ingestor'], {
  PORT: '0',
  HOST: '127.0.0.1',
  ONBOARDING_ENABLED: 'false',
  ...indexedSourceAt(indexer),
  FEED_SOURCE: 'replay',
  REPLAY_FILE: replayFile,
  REPLAY_LOOP: 'true',
  // this file checks shapes, from one address: it reads one-pair prices under all 92 spellings, more than one
  // address's 100 price reads per 10 s when they fall in one window (the budgets have tests of their own)
  RATE_LIMITS_ENABLED: 'false',
})
t.teardown(() => service.stop())
const port = Number((await service.waitForLog('edge listening')).port)
const baseUrl = `http://127.0.0.1:${port}`
const streamUrl = `ws://127.0.0.1:${port}/v1/prices/stream`

/** Decodes with a mirrored type, failing the test with the decoder's issues. */
function decodes<T extends z.ZodType>(t: Test, type: T, value: unknown, what: string): z.infer<T> | undefined {
  const decoded = type.safeParse(value)
  t.ok(decoded.success, `${what} decodes: ${decoded.success ? '' : JSON.stringify(decoded.error.issues.slice(0, 3))}`)
  return decoded.success ? decoded.data : undefined
}

const connectorGet = (path: string) => fetch(baseUrl + path, { headers: CONNECTOR_HTTP_HEADERS })
const connectorPost = (path: string, body: string) =>
  fetch(baseUrl + path, { method: 'POST', body, headers: { ...CONNECTOR_HTTP_HEADERS, 'content-type': 'application/json; charset=utf-8' } })

// the connector reads its markets from the pairs list, in the indexed source's spelling
const pairsList = (await (await connectorGet('/v1/pairs?chainId=42161')).json()) as { pairs: { id: string; from: string; to: string }[] }
const markets = pairsList.pairs.map((pair) => ({ id: Number(pair.id), ...connectorMarket(pair) }))
const renamed = markets.filter((market) => market.apiPair !== market.pricePair)

const prices = await waitFor(
  async () => {
    const response = await connectorGet('/v1/prices')
    const body = response.status === 200 ? ((await response.json()) as { prices: { pair: string }[] }) : undefined
    return body && body.prices.length === markets.length ? body : undefined
  },
  { what: 'a price for every pair with a schedule', timeoutMs: 20_000 },
)

t.test('the pairs list names nine markets in a legacy spelling, and the connector maps each to a listed symbol', async (t) => {
  t.strictSame(
    renamed.map((market) => market.apiPair),
    ['HG-USD', 'CL-USD', 'SPX-USD', 'DJI-USD', 'NDX-USD', 'NIK-JPY', 'FTSE-GBP', 'DAX-EUR', 'HSI-HKD'],
  )
  const priced = new Set(prices.prices.map((row) => row.pair))
  t.strictSame(
    renamed.filter((market) => !priced.has(market.pricePair)),
    [],
    'every renamed market has a price row under the name the connector matches ticks by',
  )
})

t.test('GET /v1/prices and every GET /v1/prices/{pair} decode as OstiumPricesResponse and OstiumPrice', async (t) => {
  const snapshot = decodes(t, OstiumPricesResponse, prices, 'GET /v1/prices')
  t.ok(snapshot && snapshot.prices.length > 0)
  for (const market of markets) {
    for (const name of new Set([market.apiPair, market.pricePair])) {
      const response = await connectorGet(`/v1/prices/${name}`)
      t.equal(response.status, 200, `GET /v1/prices/${name}`)
      const row = decodes(t, OstiumPrice, await response.json(), `GET /v1/prices/${name}`)
      t.equal(row?.pair, market.pricePair, `${name} is answered under ${market.pricePair}`)
    }
  }
})

t.test('candles of every renamed market, asked for by its legacy spelling, decode and name the current assets', async (t) => {
  const now = Math.floor(Date.now() / 1000)
  for (const market of renamed) {
    const [base, quote] = market.pricePair.split('-')
    const body = await waitFor(
      async () => {
        const response = await connectorPost('/v1/ohlc', ohlcRequestBody(market.apiPair, now - 3600, now + 60, '1'))
        const answer = response.status === 200 ? ((await response.json()) as { data: unknown[] }) : undefined
        return answer && answer.data.length > 0 ? answer : undefined
      },
      { what: `a candle of ${market.apiPair}`, timeoutMs: 10_000 },
    )
    const candles = decodes(t, OstiumOhlcResponse, body, `POST /v1/ohlc ${market.apiPair}`)
    t.strictSame(
      new Set(candles?.data.map((candle) => `${candle.from}-${candle.to}`)),
      new Set([`${base}-${quote}`]),
      `${market.apiPair} candles name ${market.pricePair}`,
    )
  }
})

t.test('a failed call is read from `error`: the upstream-proxy shape of OHLC carries the reason there', async (t) => {
  const response = await connectorPost('/v1/ohlc', ohlcRequestBody('DOGE-USD', 1_795_000_000, 1_795_000_600, '1'))
  t.equal(response.status, 404)
  t.strictSame(decodes(t, OstiumErrorResponse, await response.json(), 'the 404'), {
    error: 'unknown pair "DOGE-USD"; symbols look like BTC-USD',
  })
})

const FRAME_TYPES: Record<string, z.ZodType> = {
  snapshot: OstiumPriceSnapshot,
  tick: OstiumPriceTick,
  error: OstiumPriceSocketError,
}

/**
 * Every frame decodes as the connector reads it: the header first, then the type its `type` names. One assertion
 * for all the frames received, however many the timing brought, listing each frame that did not decode.
 */
function decodeFrames(t: Test, client: TestStreamClient, from = 0): void {
  const frames = client.messages.items.slice(from)
  const problems = frames.flatMap((frame, index) => {
    const header = OstiumPriceSocketHeader.safeParse(frame)
    const decoded = header.success ? (FRAME_TYPES[header.data.type]?.safeParse(frame) ?? header) : header
    return decoded.success ? [] : [`frame ${from + index} (${String(frame.type)}): ${JSON.stringify(decoded.error.issues.slice(0, 3))}`]
  })
  t.same(problems, [], `every frame decodes (${frames.length} frames)`)
}

/** Opens the stream as OstiumSocketClient.OpenAsync does: no query, its User-Agent, then one subscribe of every pair, sorted. */
async function connectLikeTheConnector(t: Test, subscriptions: string[]): Promise<TestStreamClient> {
  const client = await openStream(streamUrl, { headers: { 'user-agent': 'StockSharp-Ostium/1.0' } })
  t.teardown(() => client.socket.terminate())
  if (subscriptions.length > 0) client.send(subscriptionMessage('subscribe', [...subscriptions].sort()))
  return client
}

const tickOf = (client: TestStreamClient, pair: string, from = 0) =>
  client.messages.waitFor((frame) => frame.type === 'tick' && frame.data.pair === pair, `a ${pair} tick`, { from, timeoutMs: 10_000 })

t.test('stream: legacy-spelled subscriptions, ticks matched by the current symbol, every frame decodes', async (t) => {
  const client = await connectLikeTheConnector(t, [])
  await client.messages.waitFor((frame) => frame.type === 'snapshot', 'the snapshot')
  for (const market of renamed) client.send(subscriptionMessage('subscribe', [market.apiPair]))
  const acks = await client.messages.until(() => {
    const replies = client.messages.items.filter((frame) => frame.type === 'ack' || frame.type === 'error')
    return replies.length === renamed.length ? replies : undefined
  }, 'a reply to each subscribe')
  t.strictSame(
    new Set(acks.map((frame) => JSON.stringify(frame))),
    new Set([JSON.stringify({ type: 'ack', for: 'subscribe', pairCount: null })]),
  )
  for (const market of renamed) await tickOf(client, market.pricePair)
  decodeFrames(t, client)
})

t.test('reconnect and resubscribe: a new connection with one subscribe of every pair is served again', async (t) => {
  const subscriptions = renamed.map((market) => market.apiPair)
  const first = await connectLikeTheConnector(t, subscriptions)
  await tickOf(first, 'US500-USD')
  first.socket.terminate() // the peer is gone; OstiumSocketClient.RunAsync opens a new socket and resubscribes
  const second = await connectLikeTheConnector(t, subscriptions)
  const snapshot = await second.messages.waitFor((frame) => frame.type === 'snapshot', 'the new snapshot')
  t.equal(second.messages.items.indexOf(snapshot), 0, 'the snapshot comes first')
  t.same(await second.messages.waitFor((frame) => frame.type === 'ack', 'the resubscribe ack'), {
    type: 'ack',
    for: 'subscribe',
    pairCount: null,
  })
  await tickOf(second, 'WTI-USD')
  decodeFrames(t, second)
})

t.test('an error frame is read from `message`, then `error`', async (t) => {
  const client = await connectLikeTheConnector(t, ['SPX-USD'])
  await client.messages.waitFor((frame) => frame.type === 'ack', 'the subscribe ack')
  // UnsubscribeAsync sends this once a security is no longer wanted; the connection has no ?pairs= filter
  client.send(subscriptionMessage('unsubscribe', ['SPX-USD']))
  const frame = await client.messages.waitFor((item) => item.type === 'error', 'the error frame')
  const error = decodes(t, OstiumPriceSocketError, frame, 'the error frame')
  t.equal(
    error && connectorErrorText(error),
    'Ostium price stream: this connection receives every asset; to narrow it, reconnect with ?pairs=',
    'the text the connector raises',
  )
  t.equal(
    connectorErrorText({ type: 'error', code: 'x', error: 'from error' }),
    'Ostium price stream: from error',
    'without message, error',
  )
  decodeFrames(t, client)
})
