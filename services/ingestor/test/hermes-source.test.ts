import { pino, type Logger } from 'pino'
import t from 'tap'

import { createMetrics } from '../../../kit/metrics.ts'
import { Secret } from '../../../kit/secret.ts'
import { HermesTestServer, hermesEntry, type HermesServerOptions } from '../../../test/support/hermes/hermes-server.ts'
import { metricValue } from '../../../test/support/metrics.ts'
import { EVENT_DEADLINE_MS, waitFor, withDeadline } from '../../../test/support/wait.ts'
import { FEED_IDS, UPSTREAM_PAIRS, feedIdFor, normalizeFeedId } from '../feed-ids.ts'
import type { FeedSink, UpstreamQuote } from '../sources/feed-source.ts'
import { readPriceUpdate, type FeedLookup } from '../sources/hermes-price-update.ts'
import { hermesRefusal } from '../sources/hermes-refusal.ts'
import { hermesUrl, logSafe } from '../sources/hermes-request.ts'
import { hermesSource, type HermesSourceOptions } from '../sources/hermes-source.ts'
import { reconnectDelayMs } from '../sources/reconnect-delay.ts'
import { silentLogger } from '../../../test/support/silent-logger.ts'

const BTC = feedIdFor('BTC-USD')
const EUR = feedIdFor('EUR-USD')
const UNKNOWN_FEED = `0x${'ab'.repeat(32)}`
const FAST_RECONNECT = { initialDelayMs: 10, maxDelayMs: 50 }
const API_KEY = 'test-key-5f1c9a'
const AUTH_LOG = 'Hermes refused the request: check HERMES_API_KEY'

function recordingSink() {
  const quotes: UpstreamQuote[] = []
  const malformed: Array<{ reason: string; detail: Record<string, unknown> | undefined }> = []
  const sink: FeedSink = {
    quote: (quote) => quotes.push(quote),
    malformed: (reason, detail) => malformed.push({ reason, detail }),
  }
  const quoteCount = (count: number) => waitFor(() => quotes.length >= count, { what: `${count} quotes` })
  return { sink, quotes, malformed, quoteCount }
}

/** A logger whose records (and raw lines) the test can read and wait on. */
function capturingLogger() {
  const records: Array<Record<string, unknown>> = []
  const lines: string[] = []
  const logger: Logger = pino(
    { level: 'debug' },
    {
      write: (line: string) => {
        lines.push(line)
        records.push(JSON.parse(line))
      },
    },
  )
  const withMessage = (msg: string) => records.filter((record) => record.msg === msg)
  const logged = (msg: string, count = 1) => waitFor(() => withMessage(msg).length >= count, { what: `${count} × "${msg}" log records` })
  return { logger, lines, withMessage, logged }
}

type SetupOptions = Partial<HermesSourceOptions> & { hermes?: HermesServerOptions; urlSuffix?: string }

/** `t` is the running test: the source and server are shut down when it ends. Slots are driven by the test. */
async function setup(t: { teardown(fn: () => Promise<void>): void }, { hermes, urlSuffix = '', ...options }: SetupOptions = {}) {
  const server = await HermesTestServer.start({ slotMs: 0, ...hermes })
  const recorder = recordingSink()
  const metrics = createMetrics()
  const source = hermesSource({
    baseUrl: `${server.url}${urlSuffix}`,
    pairs: ['BTC-USD', 'EUR-USD'],
    logger: silentLogger(),
    metrics,
    reconnect: FAST_RECONNECT,
    ...options,
  })
  t.teardown(async () => {
    await source.stop()
    await server.close()
  })
  return { server, recorder, source, metrics }
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

  const silent = silentLogger()
  t.throws(
    () =>
      hermesSource({
        baseUrl: 'http://127.0.0.1:9',
        pairs: ['NOPE-USD'],
        logger: silent,
        metrics: createMetrics(),
        reconnect: FAST_RECONNECT,
      }),
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

t.test('every slot repeats every feed: only a changed row goes on, repeats are counted', async (t) => {
  const { server, recorder, source, metrics } = await setup(t)
  const suppressed = (count: number) =>
    waitFor(async () => (await metricValue(metrics.hermesRepeatsSuppressed)) >= count, { what: `${count} repeats` })
  source.start(recorder.sink)
  await server.waitForOpenStreams(1)

  const btc = { feedId: BTC, price: '6512345678901', conf: '2345678901', expo: -8, publishTime: 1_700_000_000 }
  const eur = { feedId: EUR, price: '108765', conf: '12', expo: -5, publishTime: 1_700_000_001 }
  // the first price Hermes holds for a feed has no previous publish time: its metadata carries nulls
  server.setPrice({ ...btc, metadata: { slot: null, proof_available_time: null } })
  server.setPrice(eur)
  server.slot()
  await recorder.quoteCount(2)
  server.slot()
  server.slot()
  await suppressed(4)

  server.setPrice({ ...btc, conf: '2345678900' }) // same publish time, new confidence
  server.slot()
  await recorder.quoteCount(3)
  server.setPrice({ ...eur, publishTime: eur.publishTime + 1 }) // same price, new publish time
  server.slot()
  await recorder.quoteCount(4)

  t.strictSame(
    recorder.quotes.map((quote) => [quote.pair, quote.publishTimeSeconds]),
    [
      ['BTC-USD', 1_700_000_000],
      ['EUR-USD', 1_700_000_001],
      ['BTC-USD', 1_700_000_000],
      ['EUR-USD', 1_700_000_002],
    ],
  )
  t.equal(recorder.quotes[2]?.ask, 65146.91357801, 'the new confidence is in the quote')
  // slots 2 and 3 repeat both feeds, slot 4 repeats EUR, slot 5 repeats BTC
  t.equal(await metricValue(metrics.hermesRepeatsSuppressed), 6)
  t.strictSame(recorder.malformed, [])
})

t.test('the API key', async (t) => {
  t.test('is sent as a Bearer token', async (t) => {
    const { server, recorder, source } = await setup(t, { hermes: { apiKey: API_KEY }, apiKey: new Secret(API_KEY) })
    source.start(recorder.sink)
    await server.waitForOpenStreams(1)

    t.equal(server.lastAuthorization, `Bearer ${API_KEY}`)
    t.equal(source.readiness().authRefused, false)
  })

  t.test('or as the ACCESS_TOKEN query parameter of HERMES_URL, which the stream URL keeps', async (t) => {
    const { server, recorder, source } = await setup(t, {
      hermes: { apiKey: API_KEY },
      urlSuffix: `/?ACCESS_TOKEN=${API_KEY}`,
      pairs: ['BTC-USD'],
    })
    source.start(recorder.sink)
    await server.waitForOpenStreams(1)

    t.equal(server.requestedQuery.get('ACCESS_TOKEN'), API_KEY)
    t.strictSame(server.requestedIds, [BTC])
    t.equal(server.lastAuthorization, undefined)
  })

  t.test('joining keeps the base URL path prefix and query', async (t) => {
    t.equal(
      hermesUrl('https://h.example/hermes?ACCESS_TOKEN=x&a=1', 'v2/price_feeds').href,
      'https://h.example/hermes/v2/price_feeds?ACCESS_TOKEN=x&a=1',
    )
    t.equal(hermesUrl('https://h.example/p/', 'v2/updates/price/stream').href, 'https://h.example/p/v2/updates/price/stream')
    t.equal(hermesUrl('https://h.example', 'v2/price_feeds').href, 'https://h.example/v2/price_feeds')
  })

  t.test('bodies reach the log with the key and the URL query values masked, cut short', async (t) => {
    const safe = logSafe('https://h.example/?ACCESS_TOKEN=abcdefgh123&flag=1', new Secret('key-12345678'))
    t.equal(safe('bad key key-12345678, token abcdefgh123, flag 1'), 'bad key ***, token ***, flag 1')
    t.equal(safe('x'.repeat(300)).length, 200)
  })

  t.test('missing: a loud error once per interval, counted, and a long wait before the next try', async (t) => {
    const { logger, withMessage, logged } = capturingLogger()
    const { server, recorder, source, metrics } = await setup(t, {
      hermes: { apiKey: API_KEY },
      logger,
      timing: { authRetryMs: 20, errorLogIntervalMs: 60_000 },
    })
    source.start(recorder.sink)
    await waitFor(() => (server.requests.get('/v2/price_feeds') ?? 0) >= 4, { what: 'four refused requests' })
    await logged('reconnect scheduled', 3)

    const errors = withMessage(AUTH_LOG)
    t.equal(errors.length, 1, 'one error line however many refusals')
    t.match(errors[0], { level: 50, status: 401, endpoint: 'price_feeds', apiKeyConfigured: false })
    t.ok((await metricValue(metrics.hermesHttpErrors, { endpoint: 'price_feeds', status: '401' })) >= 3)
    t.equal(await metricValue(metrics.hermesAuthRefused), 1)
    t.match(source.readiness(), { authRefused: true })
    t.ok(
      withMessage('reconnect scheduled').every((record) => record.reason === 'auth' && (record.delayMs as number) >= 20),
      'every wait is the auth wait',
    )
    t.equal(server.connections, 0, 'no stream is asked for with a refused key')
  })

  t.test('refused: 403, waits five minutes by default, and the key reaches no log line', async (t) => {
    const { logger, lines, withMessage, logged } = capturingLogger()
    const wrongKey = 'wrong-key-77d2e1'
    const { recorder, source } = await setup(t, { hermes: { apiKey: API_KEY }, apiKey: new Secret(wrongKey), logger })
    source.start(recorder.sink)
    await logged('reconnect scheduled')

    t.match(withMessage(AUTH_LOG)[0], { status: 403, apiKeyConfigured: true })
    t.match(withMessage('reconnect scheduled')[0], { reason: 'auth', attempt: 1 })
    t.ok((withMessage('reconnect scheduled')[0]!.delayMs as number) >= 300_000)
    t.notOk(
      lines.some((line) => line.includes(wrongKey)),
      'the key is in no log line',
    )
  })
  t.end()
})

t.test('error events are counted by kind and logged once per kind per interval', async (t) => {
  const { logger, withMessage } = capturingLogger()
  const { server, recorder, source, metrics } = await setup(t, { logger })
  source.start(recorder.sink)
  await server.waitForOpenStreams(1)

  // EUR has no price at this slot: Hermes replaces the whole event with an error event
  server.setPrice({ feedId: BTC, price: '6512345678901', conf: '2345678901', expo: -8, publishTime: 1_700_000_000 })
  server.slot()
  server.slot()
  server.sendError('Error receiving update: Lagged(3)')
  server.sendError('a notice of a kind not seen before')
  server.push([btcEntry('6512345678901')])
  await recorder.quoteCount(1)

  const kinds = ['message_not_found', 'receive_error', 'other', 'slow_consumer', 'connection_timeout']
  const counts = await Promise.all(kinds.map((kind) => metricValue(metrics.hermesErrorEvents, { kind })))
  t.strictSame(counts, [2, 1, 1, 0, 0])
  t.strictSame(
    withMessage('Hermes sent an error event').map((record) => [record.kind, record.upstreamMessage]),
    [
      ['message_not_found', 'Error receiving update: Message not found'],
      ['receive_error', 'Error receiving update: Lagged(3)'],
      ['other', 'a notice of a kind not seen before'],
    ],
  )
  t.strictSame(recorder.malformed, [], 'error events are not malformed price data')
})

t.test('reconnects after Hermes drops a slow consumer', async (t) => {
  const { server, recorder, source, metrics } = await setup(t)
  source.start(recorder.sink)
  await server.waitForOpenStreams(1)

  server.disconnectSlowConsumers()
  await server.waitForConnections(2)
  await server.waitForOpenStreams(1)
  server.push([btcEntry('6512345678901')])
  await recorder.quoteCount(1)
  t.equal(await metricValue(metrics.hermesErrorEvents, { kind: 'slow_consumer' }), 1)
})

t.test('reconnects after the 24-hour close', async (t) => {
  // a stream older than maxConnectionMs ends at its next slot; 0 makes that the first slot
  const { server, recorder, source, metrics } = await setup(t, { hermes: { maxConnectionMs: 0 } })
  source.start(recorder.sink)
  await server.waitForOpenStreams(1)

  server.slot()
  await server.waitForConnections(2)
  await server.waitForOpenStreams(1)
  server.push([btcEntry('6512345678901')])
  await recorder.quoteCount(1)
  t.equal(await metricValue(metrics.hermesErrorEvents, { kind: 'connection_timeout' }), 1)
  t.strictSame(recorder.malformed, [])
})

t.test('429: waits out the limit: 60 s, or Retry-After when Hermes names it', async (t) => {
  const cases = [
    { retryAfterSeconds: undefined, minimumMs: 60_000 },
    { retryAfterSeconds: 90, minimumMs: 90_000 },
  ]
  for (const { retryAfterSeconds, minimumMs } of cases) {
    await t.test(`Retry-After ${retryAfterSeconds ?? 'absent'}`, async (t) => {
      const { logger, withMessage, logged } = capturingLogger()
      // the feed list passes, the stream request is the second and over the limit
      const rateLimit = { requests: 1, windowMs: 10_000, penaltyMs: 60_000, retryAfterSeconds }
      const { server, recorder, source, metrics } = await setup(t, { hermes: { rateLimit }, logger })
      source.start(recorder.sink)
      await logged('reconnect scheduled')

      const [scheduled] = withMessage('reconnect scheduled')
      t.match(scheduled, { reason: 'rate_limited', attempt: 1 })
      const delayMs = scheduled!.delayMs as number
      t.ok(delayMs >= minimumMs && delayMs < minimumMs + 1_000, `waits ${delayMs} ms`)
      t.equal(await metricValue(metrics.hermesHttpErrors, { endpoint: 'stream', status: '429' }), 1)
      t.equal(server.connections, 1)
    })
  }
})

t.test('refusals read: Retry-After in seconds or as a date, a 404 naming ids', (t) => {
  const now = Date.parse('2026-11-24T08:00:00Z')
  const retryAfter = (value: string) => hermesRefusal('stream', 429, new Headers({ 'retry-after': value }), '', now).retryAfterMs
  t.strictSame(['120', 'Tue, 24 Nov 2026 08:01:30 GMT', 'soon'].map(retryAfter), [120_000, 90_000, undefined])
  const notFound = hermesRefusal('stream', 404, new Headers(), `Price ids not found: 0x${'AB'.repeat(32)}, 0x${'cd'.repeat(32)}`)
  t.strictSame([notFound.kind, notFound.feedIds], ['unknown_feed_ids', [`0x${'ab'.repeat(32)}`, `0x${'cd'.repeat(32)}`]])
  t.equal(hermesRefusal('stream', 404, new Headers(), '').kind, 'http_error', 'a bare 404 names nothing')
  t.equal(hermesRefusal('price_feeds', 401, new Headers(), '').kind, 'auth')
  t.end()
})

t.test('backoff', async (t) => {
  t.test('keeps growing while streams are accepted and dropped at once', async (t) => {
    const { logger, withMessage, logged } = capturingLogger()
    const { server, recorder, source } = await setup(t, {
      hermes: { rateLimit: false },
      logger,
      reconnect: { initialDelayMs: 10, maxDelayMs: 10_000 },
    })
    let accepted = 0
    server.on('connect', () => {
      accepted += 1
      // the first stream even delivers a price before it is dropped: not for long enough to count as healthy
      if (accepted === 1) server.push([btcEntry('6512345678901')])
      server.dropConnections()
    })
    source.start(recorder.sink)
    await logged('reconnect scheduled', 4)

    const scheduled = withMessage('reconnect scheduled').slice(0, 4)
    t.strictSame(
      scheduled.map((record) => record.attempt),
      [1, 2, 3, 4],
    )
    // ceilings 10, 20, 40, 80 ms; each wait lies in the upper half of its ceiling
    scheduled.forEach((record, index) => {
      const floor = 5 * 2 ** index
      t.ok((record.delayMs as number) >= floor, `wait ${index + 1} (${record.delayMs as number} ms) at least ${floor} ms`)
    })
  })

  t.test('starts over once a stream has delivered prices for long enough', async (t) => {
    const { logger, withMessage, logged } = capturingLogger()
    const { server, recorder, source } = await setup(t, { logger, timing: { healthyAfterMs: 0 } })
    server.failNext(503)
    server.failNext(503)
    source.start(recorder.sink)
    await server.waitForOpenStreams(1)
    server.push([btcEntry('6512345678901')])
    await recorder.quoteCount(1)

    server.dropConnections()
    await server.waitForConnections(4)
    await logged('reconnect scheduled', 3)
    t.strictSame(
      withMessage('reconnect scheduled').map((record) => [record.attempt, record.reason]),
      [
        [1, 'http_error'],
        [2, 'http_error'],
        [1, 'ended'],
      ],
    )
  })
  t.end()
})

t.test('keep-alive comments keep a quiet stream open; silence ends it', async (t) => {
  t.test('comments', async (t) => {
    // a keep-alive every 100 ms, so 60 take 6 s; without them the stream would be ended after 2 s (a margin that
    // a process paused for half a second, its keep-alives read late, stays well inside)
    const { server, recorder, source } = await setup(t, { hermes: { keepAliveMs: 100 }, timing: { idleTimeoutMs: 2_000 } })
    source.start(recorder.sink)
    await server.waitForOpenStreams(1)
    await waitFor(() => server.keepAlivesSent >= 60, { what: 'keep-alives for three idle timeouts' })
    t.equal(server.connections, 1, 'the quiet stream was kept')
  })

  t.test('silence', async (t) => {
    const { logger, withMessage, logged } = capturingLogger()
    const { server, recorder, source } = await setup(t, { hermes: { keepAliveMs: 60_000 }, timing: { idleTimeoutMs: 100 }, logger })
    source.start(recorder.sink)
    await server.waitForConnections(2)
    await logged('stream failed')
    t.match(withMessage('stream failed')[0], { err: /no data or keep-alive for 100 ms/ })
  })
  t.end()
})

t.test('unknown feed ids', async (t) => {
  const feedsWithoutEur = FEED_IDS.flatMap((entry) =>
    entry.pythSymbol && entry.feedId !== EUR ? [{ id: entry.feedId, symbol: entry.pythSymbol }] : [],
  )

  t.test('are found at start in the feed list, reported and left out', async (t) => {
    const { logger, withMessage } = capturingLogger()
    const { server, recorder, source, metrics } = await setup(t, { hermes: { feeds: feedsWithoutEur }, logger })
    source.start(recorder.sink)
    await server.waitForOpenStreams(1)

    t.strictSame(server.requestedIds, [BTC])
    const [report] = withMessage('Hermes does not know these feed ids: their pairs get no prices')
    t.match(report, { level: 50, how: 'missing from the feed list', feeds: [{ pair: 'EUR-USD', feedId: EUR }] })
    t.equal(await metricValue(metrics.hermesUnknownFeedIds), 1)
    t.strictSame(source.readiness(), { feedList: 'checked', unknownFeeds: [{ pair: 'EUR-USD', feedId: EUR }], authRefused: false })
  })

  t.test('without ignore_invalid_price_ids, the 404 names them: logged and left out', async (t) => {
    const { logger, withMessage, logged } = capturingLogger()
    const { server, recorder, source, metrics } = await setup(t, {
      hermes: { feeds: feedsWithoutEur },
      ignoreInvalidPriceIds: false,
      logger,
    })
    server.failNext(500, '/v2/price_feeds') // the check at start fails, so the stream finds out
    source.start(recorder.sink)
    await server.waitForOpenStreams(1)
    await logged('Hermes does not know these feed ids: their pairs get no prices')

    t.equal(server.connections, 2)
    t.strictSame(server.requestedIds, [BTC])
    t.equal(server.requestedQuery.get('ignore_invalid_price_ids'), 'false')
    t.match(withMessage('Hermes does not know these feed ids: their pairs get no prices')[0], {
      how: 'refused by the stream (404)',
      feeds: [{ pair: 'EUR-USD', feedId: EUR }],
    })
    t.equal(await metricValue(metrics.hermesHttpErrors, { endpoint: 'stream', status: '404' }), 1)
    t.equal(await metricValue(metrics.hermesHttpErrors, { endpoint: 'price_feeds', status: '500' }), 1)
    t.match(withMessage('feed list check failed; streaming without it, checking again on reconnect')[0], { err: /HTTP 500/ })
  })
  t.end()
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
  server.push([btcEntry('6512345678902')])
  await recorder.quoteCount(1)
  t.equal(server.openStreams, 1, 'the first connection was closed')
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

  await withDeadline(source.stop(), EVENT_DEADLINE_MS, 'stop()')
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
