// Compressed answers on the real HTTP kit, read with node:http (which, unlike fetch, leaves the bytes as sent).

import t, { type Test } from 'tap'
import { request, type IncomingHttpHeaders } from 'node:http'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import type { Metrics } from '../../../kit/metrics.ts'
import { PAIRS } from '../../../schemas/pairs.ts'
import { startTestEdge } from '../../../test/support/edge-harness.ts'
import { priceRow, rowBytes } from '../../../test/support/price-rows.ts'
import { waitFor } from '../../../test/support/wait.ts'
import type { IndexerClient } from '../../indexer/indexer-client.ts'
import { marketHoursRoutes } from '../../market-hours/routes.ts'
import { portfolioRoutes } from '../../portfolio/routes.ts'
import type { Route } from '../http-server.ts'
import { createRateLimits } from '../rate-limits.ts'
import { serveRoutes } from '../../../test/support/route-server.ts'
import { silentLogger } from '../../../test/support/silent-logger.ts'

interface RawResponse {
  status: number
  headers: IncomingHttpHeaders
  body: Buffer
}

function get(url: string, headers: Record<string, string> = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const outgoing = request(url, { headers }, (response) => {
      const chunks: Buffer[] = []
      response.on('data', (chunk: Buffer) => chunks.push(chunk))
      response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks) }))
      response.on('error', reject)
    })
    outgoing.on('error', reject)
    outgoing.end()
  })
}

const decoded = (response: RawResponse): Buffer => {
  const coding = response.headers['content-encoding']
  if (coding === 'gzip') return gunzipSync(response.body)
  if (coding === 'br') return brotliDecompressSync(response.body)
  return response.body
}

async function compressions(metrics: Metrics): Promise<Record<string, number>> {
  const counts: Record<string, number> = { br: 0, gzip: 0 }
  for (const { labels, value } of (await metrics.httpCompressions.get()).values) counts[String(labels.coding)] = value
  return counts
}

/** An edge whose snapshot holds rows for the first `count` pairs (some 12 KB for 40). */
async function edgeWithSnapshot(t: Test, count = 40) {
  const edge = await startTestEdge()
  t.teardown(edge.stop)
  for (const pair of PAIRS.slice(0, count)) edge.bus.publishTick(pair.symbol, rowBytes(priceRow(pair.symbol)))
  await waitFor(async () => {
    const response = await get(`${edge.baseUrl}/v1/prices`)
    return response.status === 200 && JSON.parse(response.body.toString()).prices.length === count
  })
  return edge
}

t.test('GET /v1/prices: br, gzip and identity carry the same snapshot bytes, each with Vary', async (t) => {
  const edge = await edgeWithSnapshot(t)
  const url = `${edge.baseUrl}/v1/prices`
  const identity = await get(url)
  t.equal(identity.status, 200)
  t.equal(identity.headers['content-encoding'], undefined)
  t.equal(identity.headers.vary, 'Origin, accept-encoding')
  t.equal(identity.headers['content-type'], 'application/json')
  t.ok(identity.body.length > 10_000, `a snapshot worth compressing (${identity.body.length} bytes)`)
  const expected: Array<[string, string | undefined]> = [
    ['gzip', 'gzip'],
    ['br', 'br'],
    ['gzip, deflate, br', 'br'],
    ['gzip;q=1, br;q=0.5', 'gzip'],
    ['br;q=0, gzip;q=0', undefined],
    ['identity', undefined],
    ['deflate', undefined],
  ]
  for (const [acceptEncoding, coding] of expected) {
    const response = await get(url, { 'accept-encoding': acceptEncoding })
    t.equal(response.status, 200, acceptEncoding)
    t.equal(response.headers['content-encoding'], coding, acceptEncoding)
    t.equal(response.headers.vary, 'Origin, accept-encoding', acceptEncoding)
    t.equal(response.headers['content-type'], 'application/json', acceptEncoding)
    t.match(response.headers['x-request-id'], /^[0-9a-f-]{36}$/, acceptEncoding)
    t.equal(Number(response.headers['content-length']), response.body.length, acceptEncoding)
    if (coding) t.ok(response.body.length < identity.body.length / 3, `${acceptEncoding}: ${response.body.length} bytes`)
    t.ok(decoded(response).equals(identity.body), `${acceptEncoding}: decodes to the identity bytes`)
  }
  const viaFetch = await fetch(url, { headers: { 'accept-encoding': 'gzip' } })
  t.equal(viaFetch.headers.get('content-encoding'), 'gzip')
  t.ok(Buffer.from(await viaFetch.arrayBuffer()).equals(identity.body), 'fetch decodes it to the same bytes')
})

t.test('each coding of the snapshot is made once per change, never per request', async (t) => {
  const edge = await edgeWithSnapshot(t)
  const url = `${edge.baseUrl}/v1/prices`
  t.same(await compressions(edge.metrics), { br: 0, gzip: 0 }, 'nothing compressed before anyone asks')
  for (let request = 0; request < 10; request++) {
    await get(url, { 'accept-encoding': 'gzip' })
    await get(url, { 'accept-encoding': 'br' })
    await get(url)
  }
  t.same(await compressions(edge.metrics), { br: 1, gzip: 1 }, '10 requests per coding, one compression each')

  const before = (await get(url)).body
  edge.bus.publishTick('BTC-USD', rowBytes(priceRow('BTC-USD', { mid: 123_456, bid: 123_455, ask: 123_457 })))
  await waitFor(async () => !(await get(url)).body.equals(before))
  t.same(await compressions(edge.metrics), { br: 1, gzip: 1 }, 'a change alone compresses nothing')
  const changed = await get(url)
  for (let request = 0; request < 5; request++) {
    const response = await get(url, { 'accept-encoding': 'gzip' })
    t.ok(decoded(response).equals(changed.body), 'the new snapshot')
  }
  t.same(await compressions(edge.metrics), { br: 1, gzip: 2 }, 'the changed snapshot compressed once for gzip')
})

t.test('a small answer goes out uncompressed, still with Vary', async (t) => {
  const edge = await edgeWithSnapshot(t, 1)
  const response = await get(`${edge.baseUrl}/v1/prices`, { 'accept-encoding': 'gzip, br' })
  t.equal(response.status, 200)
  t.equal(response.headers['content-encoding'], undefined)
  t.equal(response.headers.vary, 'Origin, accept-encoding')
  t.equal(JSON.parse(response.body.toString()).prices.length, 1)
  t.same(await compressions(edge.metrics), { br: 0, gzip: 0 })
})

/** Routes on the HTTP kit with limits lifted, and the metrics they count into. */
async function serve(t: Test, routes: Route[]) {
  const server = await serveRoutes(routes, { rateLimits: createRateLimits({ logger: silentLogger(), enabled: false }) })
  t.teardown(() => server.close())
  return { base: server.baseUrl, metrics: server.metrics }
}

t.test('GET /v1/market-hours: an ETag per coding, 304 for it, one compression per answer', async (t) => {
  const { base, metrics } = await serve(t, marketHoursRoutes())
  const url = `${base}/v1/market-hours`
  const identity = await get(url)
  const gzip = await get(url, { 'accept-encoding': 'gzip' })
  const br = await get(url, { 'accept-encoding': 'br' })
  t.equal(gzip.headers['content-encoding'], 'gzip')
  t.equal(br.headers['content-encoding'], 'br')
  for (const response of [identity, gzip, br]) {
    t.equal(response.headers.vary, 'Origin, accept-encoding')
    t.equal(response.headers['cache-control'], 'public, max-age=3600')
    t.ok(decoded(response).equals(identity.body), 'decodes to the identity bytes')
  }
  const tag = identity.headers.etag!
  t.match(tag, /^"[A-Za-z0-9_-]{27}"$/)
  t.equal(gzip.headers.etag, tag.replace(/"$/, '-gzip"'), 'gzip: its own strong tag')
  t.equal(br.headers.etag, tag.replace(/"$/, '-br"'), 'br: its own strong tag')
  const revalidated = await get(url, { 'accept-encoding': 'gzip', 'if-none-match': gzip.headers.etag! })
  t.equal(revalidated.status, 304)
  t.equal(revalidated.headers.etag, gzip.headers.etag)
  t.equal(revalidated.headers.vary, 'Origin, accept-encoding')
  t.equal(revalidated.body.length, 0)
  const otherCoding = await get(url, { 'accept-encoding': 'br', 'if-none-match': gzip.headers.etag! })
  t.equal(otherCoding.status, 200, 'the gzip tag does not validate the br representation')
  for (let request = 0; request < 5; request++) await get(url, { 'accept-encoding': 'gzip' })
  t.same(await compressions(metrics), { br: 1, gzip: 1 })
  const narrowed = await get(`${url}?pair=NVDA-USD`, { 'accept-encoding': 'gzip' })
  t.equal(JSON.parse(decoded(narrowed).toString()).pairs.length, 1)
  t.same(await compressions(metrics), { br: 1, gzip: narrowed.headers['content-encoding'] === 'gzip' ? 2 : 1 }, 'another answer')
})

t.test('GET /v1/pairs: compressed once per list the indexed source hands out', async (t) => {
  let listed = Array.from({ length: 60 }, (_, id) => ({ id: String(id), from: `BASE${id}`, to: 'USD', feedId: `0x${'ab'.repeat(32)}` }))
  const indexer = { pairs: async () => listed } as unknown as IndexerClient
  const { base, metrics } = await serve(t, portfolioRoutes(indexer))
  const url = `${base}/v1/pairs?chainId=42161`
  const identity = await get(url)
  t.equal(identity.status, 200)
  t.equal(JSON.parse(identity.body.toString()).count, 60)
  for (let request = 0; request < 5; request++) {
    const gzip = await get(url, { 'accept-encoding': 'gzip' })
    t.equal(gzip.headers['content-encoding'], 'gzip')
    t.equal(gzip.headers.vary, 'Origin, accept-encoding')
    t.ok(decoded(gzip).equals(identity.body))
  }
  t.same(await compressions(metrics), { br: 0, gzip: 1 })
  listed = listed.slice(0, 50)
  const shorter = await get(url, { 'accept-encoding': 'gzip' })
  t.equal(JSON.parse(decoded(shorter).toString()).count, 50)
  t.same(await compressions(metrics), { br: 0, gzip: 2 }, 'a new list, a new compression')
})
