import { pino, type Logger } from 'pino'
import t from 'tap'

import { HermesTestServer, hermesEntry } from '../../../test/support/hermes-server.ts'
import { waitFor, withDeadline } from '../../../test/support/wait.ts'
import { FEED_IDS, UPSTREAM_PAIRS, feedIdFor, normalizeFeedId } from '../feed-ids.ts'
import type { FeedSink, UpstreamQuote } from '../sources/feed-source.ts'
import { readPriceUpdate, type FeedLookup } from '../sources/hermes-price-update.ts'
import { hermesSource, type HermesSourceOptions } from '../sources/hermes-source.ts'
import { reconnectDelayMs } from '../sources/reconnect-delay.ts'

const WAIT_MS = 2_000
const BTC = feedIdFor('BTC-USD')
const EUR = feedIdFor('EUR-USD')
const UNKNOWN_FEED = `0x${'ab'.repeat(32)}`
const FAST_RECONNECT = { initialDelayMs: 10, maxDelayMs: 50 }

function recordingSink() {
  const quotes: UpstreamQuote[] = []
  const malformed: Array<{ reason: string; detail: Record<string, unknown> | undefined }> = []
  const sink: FeedSink = {
    quote: (quote) => quotes.push(quote),
    malformed: (reason, detail) => malformed.push({ reason, detail }),
  }
  const quoteCount = (count: number) => waitFor(() => quotes.length >= count, { timeoutMs: WAIT_MS, what: `${count} quotes` })
  return { sink, quotes, malformed, quoteCount }
}

/** A logger whose records the test can read and wait on. */
function capturingLogger() {
  const records: Array<Record<string, unknown>> = []
  const logger: Logger = pino({ level: 'debug' }, { write: (line: string) => records.push(JSON.parse(line)) })
  const withMessage = (msg: string) => records.filter((record) => record.msg === msg)
  const logged = (msg: string, count = 1) =>
    waitFor(() => withMessage(msg).length >= count, { timeoutMs: WAIT_MS, what: `${count} × "${msg}" log records` })
  return { logger, withMessage, logged }
}

/** `t` is the running test: the source and server are shut down when it ends. */
async function setup(t: { teardown(fn: () => Promise<void>): void }, options: Partial<HermesSourceOptions> = {}) {
  const server = await HermesTestServer.start()
  const recorder = recordingSink()
  const source = hermesSource({
    baseUrl: server.url,
    pairs: ['BTC-USD', 'EUR-USD'],
    logger: pino({ level: 'silent' }),
    reconnect: FAST_RECONNECT,
    ...options,
  })
  t.teardown(async () => {
    await source.stop()
    await server.close()
  })
  return { server, recorder, source }
}

const btcEntry = (price: string) => hermesEntry({ feedId: BTC, price, conf: '2345678901', expo: -8, publishTime: 1_700_000_000 })

t.test('turns each parsed entry into a quote: price, conf and expo scaled exactly', async (t) => {
  const { server, recorder, source } = await setup(t)
  source.start(recorder.sink)
  await server.waitForOpenStreams(1)

  server.push([btcEntry('6512345678901'), hermesEntry({ feedId: EUR, price: '108765', conf: '12', expo: -5, publishTime: 1_700_000_001 })])
  await recorder.quoteCount(2)

  t.strictSame(recorder.quotes, [
    // (6512345678901 ∓ 2345678901) × 10^-8 and 6512345678901 × 10^-8
    { pair: 'BTC-USD', feedId: BTC, bid: 65100, mid: 65123.45678901, ask: 65146.91357802, publishTimeSeconds: 1_700_000_000 },
    // (108765 ∓ 12) × 10^-5
    { pair: 'EUR-USD', feedId: EUR, bid: 1.08753, mid: 1.08765, ask: 1.08777, publishTimeSeconds: 1_700_000_001 },
  ])
  t.strictSame(recorder.malformed, [])
})

t.test('subscribes to the feed ids of the mapped pairs, never to synthetic ones', (t) => {
  t.test('by default, every pair with an upstream feed', async (t) => {
    const { server, recorder, source } = await setup(t, { pairs: undefined })
    source.start(recorder.sink)
    await server.waitForOpenStreams(1)

    const requested = server.requestedIds.map(normalizeFeedId).sort()
    t.strictSame(requested, UPSTREAM_PAIRS.map(feedIdFor).sort())
    t.equal(requested.length, 60)
    const synthetic = new Set(FEED_IDS.filter((entry) => entry.source === 'synthetic').map((entry) => entry.feedId))
    t.notOk(
      requested.some((id) => synthetic.has(id)),
      'no synthetic id requested',
    )
    t.equal(server.requestedQuery.get('parsed'), 'true')
    t.equal(server.requestedQuery.get('ignore_invalid_price_ids'), 'true')
  })

  t.test('given pairs, minus those without an upstream feed', async (t) => {
    const { server, recorder, source } = await setup(t, { pairs: ['US500-USD', 'BTC-USD', 'SKHY-USD', 'XAU-USD'] })
    source.start(recorder.sink)
    await server.waitForOpenStreams(1)

    t.strictSame(server.requestedIds.map(normalizeFeedId), [BTC, feedIdFor('XAU-USD')])
  })

  t.test('only pairs without an upstream feed: no connection at all', async (t) => {
    const { logger, logged } = capturingLogger()
    const { server, recorder, source } = await setup(t, { pairs: ['US500-USD'], logger })
    source.start(recorder.sink)
    await logged('stopped')

    t.equal(server.connections, 0)
  })

  const silent = pino({ level: 'silent' })
  t.throws(
    () => hermesSource({ baseUrl: 'http://127.0.0.1:9', pairs: ['NOPE-USD'], logger: silent, reconnect: FAST_RECONNECT }),
    /unknown pair NOPE-USD/,
  )
  t.end()
})

t.test('reports each malformed event or entry with its reason and keeps streaming', async (t) => {
  const { server, recorder, source } = await setup(t)
  source.start(recorder.sink)
  await server.waitForOpenStreams(1)

  server.pushRaw('{"parsed": [')
  server.pushRaw(JSON.stringify({ binary: { encoding: 'hex', data: [] }, parsed: 'none' }))
  server.pushRaw(JSON.stringify({ parsed: [{ id: BTC.slice(2), price: { price: 12 } }] }))
  server.push([btcEntry('0')])
  const unknownFeed = hermesEntry({ feedId: UNKNOWN_FEED, price: '100', conf: '1', expo: 0, publishTime: 1 })
  server.push([unknownFeed, btcEntry('6512345678901')])
  await recorder.quoteCount(1)

  t.strictSame(
    recorder.malformed.map((report) => report.reason),
    ['invalid_json', 'invalid_shape', 'invalid_shape', 'non_positive_price', 'unknown_feed_id'],
  )
  t.strictSame(recorder.malformed[3]?.detail, { feedId: BTC, price: '0' })
  t.strictSame(recorder.malformed[4]?.detail, { feedId: UNKNOWN_FEED.slice(2) })
  t.equal(recorder.quotes[0]?.mid, 65123.45678901, 'a good entry beside a bad one still becomes a quote')

  server.push([btcEntry('6512345600000')])
  await recorder.quoteCount(2)
  t.equal(recorder.quotes[1]?.mid, 65123.456)
})

t.test('reads price updates: id spellings, confidence wider than the price', (t) => {
  const lookup: FeedLookup = (id) => (normalizeFeedId(id) === BTC ? { pair: 'BTC-USD', feedId: BTC } : undefined)
  const update = (entries: unknown[]) => JSON.stringify({ binary: { encoding: 'hex', data: [] }, parsed: entries })

  const oneDollar = hermesEntry({ feedId: BTC, price: '100000000', conf: '5', expo: -8, publishTime: 7 })
  const upperCaseId = { ...oneDollar, id: BTC.toUpperCase() }
  t.strictSame(readPriceUpdate(update([upperCaseId]), lookup), {
    quotes: [{ pair: 'BTC-USD', feedId: BTC, bid: 0.99999995, mid: 1, ask: 1.00000005, publishTimeSeconds: 7 }],
    malformations: [],
  })

  const wideConfidence = readPriceUpdate(update([btcEntry('100000000')]), lookup)
  t.strictSame(wideConfidence, {
    quotes: [],
    malformations: [{ reason: 'non_positive_bid', detail: { feedId: BTC, conf: '2345678901' } }],
  })

  const fractionalExpo = hermesEntry({ feedId: BTC, price: '1', conf: '0', expo: 1.5, publishTime: 7 })
  const badExpo = readPriceUpdate(update([fractionalExpo]), lookup)
  t.strictSame(
    badExpo.malformations.map((report) => report.reason),
    ['invalid_shape'],
  )
  t.end()
})

t.test('reconnects after the upstream ends the stream, as Hermes does after 24 h', async (t) => {
  const { server, recorder, source } = await setup(t)
  source.start(recorder.sink)
  await server.waitForOpenStreams(1)

  server.dropConnections()
  await server.waitForConnections(2)
  await server.waitForOpenStreams(1)
  server.push([btcEntry('6512345678901')])
  await recorder.quoteCount(1)

  t.equal(recorder.quotes[0]?.pair, 'BTC-USD')
  t.strictSame(recorder.malformed, [], "Hermes's closing error event is not malformed price data")
})

t.test('reconnects after an HTTP error', async (t) => {
  const { server, recorder, source } = await setup(t)
  server.failNext(503)
  source.start(recorder.sink)

  await server.waitForConnections(2)
  await server.waitForOpenStreams(1)
  server.push([btcEntry('6512345678901')])
  await recorder.quoteCount(1)

  t.equal(recorder.quotes[0]?.pair, 'BTC-USD')
})

t.test('a sink that throws costs a reconnect, not a leaked connection', async (t) => {
  const { server, recorder, source } = await setup(t)
  let calls = 0
  source.start({
    ...recorder.sink,
    quote(quote) {
      calls += 1
      if (calls === 1) throw new Error('sink failure')
      recorder.sink.quote(quote)
    },
  })
  await server.waitForOpenStreams(1)

  server.push([btcEntry('6512345678901')])
  await server.waitForConnections(2)
  await server.waitForOpenStreams(1)
  server.push([btcEntry('6512345678901')])
  await recorder.quoteCount(1)
  t.equal(server.openStreams, 1, 'the first connection was closed')
})

t.test('backs off while failing and starts over once a connection is accepted', async (t) => {
  const { logger, withMessage, logged } = capturingLogger()
  const { server, recorder, source } = await setup(t, { logger })
  server.failNext(503)
  server.failNext(503)
  source.start(recorder.sink)
  await server.waitForConnections(3)
  await server.waitForOpenStreams(1)

  server.dropConnections()
  await server.waitForConnections(4)
  await logged('reconnect scheduled', 3)

  const scheduled = withMessage('reconnect scheduled')
  t.strictSame(
    scheduled.map((record) => record.attempt),
    [1, 2, 1],
  )
  const delays = scheduled.map((record) => record.delayMs as number)
  // ceilings for the initial delay of 10 ms: 10, then 20 after one more failure, then 10 again
  t.ok(delays[0]! >= 5 && delays[0]! <= 10, `first wait ${delays[0]} within [5, 10]`)
  t.ok(delays[1]! >= 10 && delays[1]! <= 20, `second wait ${delays[1]} within [10, 20]`)
  t.ok(delays[2]! >= 5 && delays[2]! <= 10, `wait after a good connection ${delays[2]} within [5, 10]`)
})

t.test('reconnect delay: doubling ceiling, capped, jittered within its upper half', (t) => {
  const policy = { initialDelayMs: 100, maxDelayMs: 1_000 }
  const highest = () => 1
  const lowest = () => 0
  const failureCounts = [0, 1, 2, 3, 4]
  t.strictSame(
    failureCounts.map((failures) => reconnectDelayMs(failures, policy, highest)),
    [100, 200, 400, 800, 1_000],
  )
  t.strictSame(
    failureCounts.map((failures) => reconnectDelayMs(failures, policy, lowest)),
    [50, 100, 200, 400, 500],
  )
  t.equal(reconnectDelayMs(10_000, policy, highest), 1_000, 'no overflow after many failures')
  t.equal(reconnectDelayMs(10_000, { initialDelayMs: 0, maxDelayMs: 1_000 }, highest), 0)
  t.end()
})

t.test('stop() closes the open connection', async (t) => {
  const { server, recorder, source } = await setup(t)
  source.start(recorder.sink)
  await server.waitForOpenStreams(1)

  await withDeadline(source.stop(), WAIT_MS, 'stop()')
  await server.waitForOpenStreams(0)
  t.equal(server.connections, 1, 'no reconnect after stop')
})

t.test('stop() during a backoff wait returns without waiting it out', async (t) => {
  const { logger, logged } = capturingLogger()
  const reconnect = { initialDelayMs: 60_000, maxDelayMs: 60_000 }
  const { server, recorder, source } = await setup(t, { logger, reconnect })
  server.failNext(503)
  source.start(recorder.sink)
  await logged('reconnect scheduled')

  await withDeadline(source.stop(), 1_000, 'stop() during backoff')
  t.equal(server.connections, 1)
})
