// The Hermes double holds to what the real Hermes does (README.md beside this file names the sources):
// raw HTTP for exact statuses, bodies and frames, and Pyth's own client for its requests verbatim.
import { HermesClient } from '@pythnetwork/hermes-client'
import t from 'tap'

import { feedIdFor } from '../../../services/ingestor/feed-ids.ts'
import { waitFor } from '../wait.ts'
import { HermesTestServer, type HermesServerOptions } from './hermes-server.ts'

const BTC = feedIdFor('BTC-USD').slice(2)
const EUR = feedIdFor('EUR-USD').slice(2)
const UNKNOWN = 'ab'.repeat(32)
const KEY = 'double-key-31c7'

async function start(t: { teardown(fn: () => Promise<void>): void }, options: HermesServerOptions = {}) {
  const server = await HermesTestServer.start({ slotMs: 0, rateLimit: false, ...options })
  t.teardown(() => server.close())
  return server
}

const streamPath = (ids: string[], query = '') => `/v2/updates/price/stream?${ids.map((id) => `ids[]=${id}`).join('&')}${query}`

/** An open stream read as raw text; `until` waits for the text to satisfy a predicate. */
async function openStream(server: HermesTestServer, path: string, headers: Record<string, string> = {}) {
  const abort = new AbortController()
  const response = await fetch(`${server.url}${path}`, { headers, signal: abort.signal })
  let text = ''
  let ended = false
  const reading = (async () => {
    const reader = response.body!.getReader()
    const decoder = new TextDecoder()
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      text += decoder.decode(value, { stream: true })
    }
    ended = true
  })().catch(() => undefined)
  return {
    response,
    text: () => text,
    ended: () => ended,
    until: (predicate: (text: string) => boolean, what: string) => waitFor(() => predicate(text), { what }),
    async close() {
      abort.abort()
      await reading
    },
  }
}

const events = (text: string) => text.split('\n\n').filter((frame) => frame.startsWith('data:'))
const price = (feedId: string, value: string, publishTime: number) => ({ feedId, price: value, conf: '5', expo: -2, publishTime })

t.test('one event per slot with every subscribed id, unchanged ones too; metadata nulls as Hermes sends them', async (t) => {
  const server = await start(t)
  server.setPrice(price(BTC, '100', 1_700_000_000))
  server.setPrice(price(EUR, '200', 1_700_000_000))
  const stream = await openStream(server, streamPath([BTC, `0x${EUR.toUpperCase()}`], '&encoding=base64'))
  t.teardown(() => stream.close())
  t.equal(stream.response.headers.get('content-type'), 'text/event-stream')
  t.equal(stream.response.headers.get('cache-control'), 'no-cache')
  await server.waitForOpenStreams(1)

  server.slot()
  server.setPrice(price(BTC, '101', 1_700_000_001))
  server.slot()
  await stream.until((text) => events(text).length === 2, 'two events')

  const [first, second] = events(stream.text()).map((frame) => JSON.parse(frame.slice('data:'.length)))
  t.strictSame(first.binary, { encoding: 'base64', data: ['UE5BVQ=='] })
  t.strictSame(
    first.parsed.map((entry: { id: string }) => entry.id),
    [BTC, EUR],
  )
  t.strictSame(first.parsed[0].price, { price: '100', conf: '5', expo: -2, publish_time: 1_700_000_000 })
  t.equal(first.parsed[0].metadata.prev_publish_time, null, 'no previous publish time for a first price')
  t.strictSame(second.parsed[1], first.parsed[1], 'the unchanged feed is sent again as it stood')
  t.match(second.parsed[0], { price: { price: '101', publish_time: 1_700_000_001 }, metadata: { prev_publish_time: 1_700_000_000 } })
  t.ok(stream.text().startsWith('data:{'), 'axum writes "data:" with no space')
})

t.test('a subscribed feed without a price turns the whole event into "Message not found"', async (t) => {
  const server = await start(t)
  server.setPrice(price(BTC, '100', 1))
  const stream = await openStream(server, streamPath([BTC, EUR]))
  t.teardown(() => stream.close())
  await server.waitForOpenStreams(1)
  server.slot()
  await stream.until((text) => text.includes('\n\n'), 'one event')
  t.equal(stream.text(), 'event:error\ndata:Error receiving update: Message not found\n\n')
})

t.test('benchmarks_only keeps the entries whose publish time moved', async (t) => {
  const server = await start(t)
  server.setPrice(price(BTC, '100', 1))
  server.setPrice(price(BTC, '101', 2))
  server.setPrice(price(EUR, '200', 5))
  const stream = await openStream(server, streamPath([BTC, EUR], '&benchmarks_only=true'))
  t.teardown(() => stream.close())
  await server.waitForOpenStreams(1)
  server.slot()
  await stream.until((text) => events(text).length === 1, 'one event')
  const update = JSON.parse(events(stream.text())[0]!.slice('data:'.length))
  t.strictSame(
    update.parsed.map((entry: { id: string }) => entry.id),
    [BTC],
  )
})

t.test('keep-alive comments only after a quiet interval', async (t) => {
  const server = await start(t, { keepAliveMs: 30 })
  const stream = await openStream(server, streamPath([BTC]))
  t.teardown(() => stream.close())
  const commentsIn = (text: string) => text.match(/:\n\n/g)?.length ?? 0
  // at least two: a process paused past an interval reads the next one with them
  await stream.until((text) => commentsIn(text) >= 2, 'two keep-alive comments')
  const comments = commentsIn(stream.text())
  t.equal(stream.text(), ':\n\n'.repeat(comments), 'nothing but keep-alive comments')
  t.ok(server.keepAlivesSent >= comments, `each one counted (${comments} read, ${server.keepAlivesSent} sent)`)
})

t.test('the 24-hour close: at the first slot past the limit, the timeout event, then the end', async (t) => {
  const server = await start(t, { maxConnectionMs: 0 })
  server.setPrice(price(BTC, '100', 1))
  const stream = await openStream(server, streamPath([BTC]))
  await server.waitForOpenStreams(1)
  server.slot()
  await waitFor(() => stream.ended(), { what: 'the end of the stream' })
  t.equal(stream.text(), 'event:error\ndata:Connection timeout reached (24h)\n\n')
})

t.test('a slow consumer is told and dropped', async (t) => {
  const server = await start(t)
  const stream = await openStream(server, streamPath([BTC]))
  await server.waitForOpenStreams(1)
  server.disconnectSlowConsumers()
  await waitFor(() => stream.ended(), { what: 'the end of the stream' })
  t.equal(stream.text(), 'event:error\ndata:Slow consumer: disconnected\n\n')
})

t.test('unknown ids: 404 naming them, or dropped with ignore_invalid_price_ids; malformed ids: 400', async (t) => {
  const server = await start(t)
  const refused = await fetch(`${server.url}${streamPath([BTC, UNKNOWN, `0x${'cd'.repeat(32)}`])}`)
  t.equal(refused.status, 404)
  t.equal(refused.headers.get('content-type'), 'text/plain; charset=utf-8')
  t.equal(await refused.text(), `Price ids not found: 0x${UNKNOWN}, 0x${'cd'.repeat(32)}`)

  server.setPrice(price(BTC, '100', 1))
  const stream = await openStream(server, streamPath([BTC, UNKNOWN], '&ignore_invalid_price_ids=true'))
  t.teardown(() => stream.close())
  t.equal(stream.response.status, 200)
  await server.waitForOpenStreams(1)
  server.slot()
  await stream.until((text) => events(text).length === 1, 'one event')
  t.equal(JSON.parse(events(stream.text())[0]!.slice('data:'.length)).parsed.length, 1)

  const malformed = await fetch(`${server.url}${streamPath(['xyz'])}`)
  t.equal(malformed.status, 400)
  t.match(await malformed.text(), /^Failed to deserialize query string/)
})

t.test('a retired feed leaves the list and the streams', async (t) => {
  const server = await start(t)
  server.setPrice(price(BTC, '100', 1))
  server.setPrice(price(EUR, '200', 1))
  const stream = await openStream(server, streamPath([BTC, EUR]))
  t.teardown(() => stream.close())
  await server.waitForOpenStreams(1)
  server.removeFeed(EUR)
  server.slot()
  await stream.until((text) => events(text).length === 1, 'one event')
  t.equal(JSON.parse(events(stream.text())[0]!.slice('data:'.length)).parsed.length, 1)
  const listed = (await (await fetch(`${server.url}/v2/price_feeds`)).json()) as Array<{ id: string }>
  t.notOk(listed.some((feed) => feed.id === EUR))
})

t.test('the API key: 401 without, 403 with another, Bearer in any case or ACCESS_TOKEN', async (t) => {
  const server = await start(t, { apiKey: KEY })
  const feeds = `${server.url}/v2/price_feeds`
  t.equal((await fetch(feeds)).status, 401)
  t.equal((await fetch(feeds, { headers: { authorization: 'Bearer another' } })).status, 403)
  t.equal((await fetch(feeds, { headers: { authorization: `bEaReR ${KEY}` } })).status, 200)
  t.equal((await fetch(`${feeds}?ACCESS_TOKEN=${KEY}`)).status, 200)
  t.equal((await fetch(`${server.url}${streamPath([BTC])}`)).status, 401)
  t.equal((await fetch(`${feeds}?ACCESS_TOKEN=${KEY}`, { headers: { authorization: 'Bearer another' } })).status, 403, 'the header wins')
})

t.test('the rate limit: every endpoint counts, then 429 for the penalty, with Retry-After when configured', async (t) => {
  const penaltyMs = 500
  const server = await start(t, { rateLimit: { requests: 3, windowMs: 10_000, penaltyMs, retryAfterSeconds: 1 } })
  const feeds = `${server.url}/v2/price_feeds`
  const statuses = []
  for (const url of [feeds, `${server.url}${streamPath([UNKNOWN])}`, feeds]) statuses.push((await fetch(url)).status)
  const beforeLimit = Date.now()
  const limited = await fetch(feeds)
  statuses.push(limited.status, (await fetch(feeds)).status)
  t.strictSame(statuses, [200, 404, 200, 429, 429])
  t.equal(limited.headers.get('retry-after'), '1')
  t.equal(await limited.text(), 'Too Many Requests')
  await waitFor(async () => (await fetch(feeds)).status === 200, { intervalMs: 20, what: 'the end of the penalty' })
  t.ok(Date.now() - beforeLimit >= penaltyMs, 'refused for the whole penalty period')

  const publicLimit = await start(t, { rateLimit: undefined })
  const answers = []
  for (let index = 0; index < 31; index++) answers.push((await fetch(`${publicLimit.url}/v2/price_feeds`)).status)
  t.strictSame([answers.filter((status) => status === 200).length, answers.at(-1)], [30, 429], 'the public limit: 30 per 10 s')
})

t.test("Pyth's own client: its feed list, its stream with the key, nulls its schema allows", async (t) => {
  const server = await start(t, { apiKey: KEY, slotMs: 20 })
  server.setPrice({ ...price(BTC, '100', 1), metadata: { slot: null, proof_available_time: null } })
  const client = new HermesClient(server.url, { accessToken: KEY })

  const feeds = await client.getPriceFeeds({ query: 'btc/usd', assetType: 'crypto' })
  t.strictSame(
    feeds.map((feed) => [feed.id, feed.attributes.symbol]),
    [[BTC, 'Crypto.BTC/USD']],
  )

  const eventSource = await client.getPriceUpdatesStream([BTC], { parsed: true, encoding: 'hex' })
  t.teardown(() => eventSource.close())
  const updates: unknown[] = []
  eventSource.onmessage = (event: MessageEvent<string>) => updates.push(JSON.parse(event.data))
  await waitFor(() => updates.length >= 2, { what: 'two slot events through the client' })
  t.match(updates[0], { binary: { encoding: 'hex', data: ['504e4155'] }, parsed: [{ id: BTC, metadata: { slot: null } }] })
  t.equal(server.lastAuthorization, `Bearer ${KEY}`)
})
