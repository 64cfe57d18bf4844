import t from 'tap'
import { readJson } from '../../../test/support/http.ts'
import { request } from 'node:http'
import { z } from 'zod'
import { ServiceError } from '../../../kit/errors.ts'
import { createMetrics } from '../../../kit/metrics.ts'
import { clientIpResolver } from '../client-ip.ts'
import { createHttpServer } from '../http-server.ts'
import { createRateLimits } from '../rate-limits.ts'
import { jsonReply } from '../reply.ts'
import { rawExchange } from '../../../test/support/raw-http.ts'
import { silentLogger } from '../../../test/support/silent-logger.ts'

const logger = silentLogger()
const server = createHttpServer({
  logger,
  metrics: createMetrics(),
  rateLimits: createRateLimits({ logger }),
  resolveClientIp: clientIpResolver(['127.0.0.1']),
  bodyLimitBytes: 1024,
})
server.addRoutes([
  { method: 'GET', path: '/t/plain', handle: () => jsonReply(200, { hello: 'world' }) },
  { method: 'GET', path: '/t/item/:id', handle: ({ params, clientIp }) => jsonReply(200, { id: params.id, clientIp }) },
  {
    method: 'POST',
    path: '/t/item/:id',
    budget: 'onboard',
    handle({ body }) {
      const parsed = z.object({ n: z.number() }).safeParse(JSON.parse(body.toString()))
      if (!parsed.success) throw new ServiceError('validation_failed', 'invalid body', { issues: parsed.error.issues })
      return jsonReply(201, { n: parsed.data.n, bytes: body.length })
    },
  },
  {
    method: 'GET',
    path: '/t/boom',
    handle: () => {
      throw new Error('secret internals')
    },
  },
  { method: 'GET', path: '/t/limited', budget: 'onboard', handle: () => jsonReply(200, {}) },
  {
    method: 'POST',
    path: '/t/proxy',
    budget: 'onboard',
    errorShape: 'upstream-proxy',
    handle({ body }) {
      if (body.toString() === 'boom') throw new Error('internals')
      return jsonReply(200, {})
    },
  },
])
const port = await server.listen('127.0.0.1', 0)
t.teardown(() => server.close())
const base = `http://127.0.0.1:${port}`
const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

t.test('every response carries a generated x-request-id; a client value is ignored', async (t) => {
  const ids = new Set<string>()
  for (const path of ['/t/plain', '/t/nowhere', '/t/boom']) {
    const response = await fetch(base + path, { headers: { 'x-request-id': 'client-chosen' } })
    const id = response.headers.get('x-request-id')!
    t.match(id, uuid, path)
    ids.add(id)
  }
  t.equal(ids.size, 3, 'a new id per response')
})

t.test('unknown route: 404 in the framework shape', async (t) => {
  const response = await fetch(`${base}/v1/nothing-here`)
  t.equal(response.status, 404)
  t.equal(response.headers.get('content-type'), 'application/json')
  t.same(await readJson(response), { error: 'Not Found', message: 'no such route' })
})

t.test('wrong method: 405 with Allow', async (t) => {
  const response = await fetch(`${base}/t/plain`, { method: 'POST', body: '{}' })
  t.equal(response.status, 405)
  t.equal(response.headers.get('allow'), 'GET, HEAD')
  const body = await readJson(response)
  t.equal(body.error, 'Method Not Allowed')
  t.equal(body.message, 'POST is not allowed here; use GET, HEAD')
  const both = await fetch(`${base}/t/item/1`, { method: 'DELETE' })
  t.equal(both.status, 405)
  t.equal(both.headers.get('allow'), 'GET, POST, HEAD')
})

t.test('route parameters are decoded', async (t) => {
  const response = await fetch(`${base}/t/item/a%20b`)
  t.same(await readJson(response), { id: 'a b', clientIp: '127.0.0.1' })
})

t.test('X-Forwarded-For is honoured from a trusted proxy', async (t) => {
  const response = await fetch(`${base}/t/item/x`, { headers: { 'x-forwarded-for': '203.0.113.9, 127.0.0.1' } })
  t.same(await readJson(response), { id: 'x', clientIp: '203.0.113.9' })
})

t.test('validation failure: 400 with the raw issues', async (t) => {
  const response = await fetch(`${base}/t/item/1`, { method: 'POST', body: '{"n":"one"}', headers: { 'x-forwarded-for': '198.51.100.1' } })
  t.equal(response.status, 400)
  const body = await readJson(response)
  t.equal(body.error, 'Bad Request')
  t.equal(body.message, 'invalid body')
  t.equal(body.issues[0].path[0], 'n')
  t.equal(body.issues[0].code, 'invalid_type')
})

t.test('body at the limit is read whole; above it is 413', async (t) => {
  const exact = JSON.stringify({ n: 1, pad: 'x'.repeat(1024 - 16) })
  t.equal(exact.length, 1024)
  const ok = await fetch(`${base}/t/item/1`, { method: 'POST', body: exact, headers: { 'x-forwarded-for': '198.51.100.2' } })
  t.same(await readJson(ok), { n: 1, bytes: 1024 })
  const declared = await fetch(`${base}/t/item/1`, { method: 'POST', body: exact + ' ', headers: { 'x-forwarded-for': '198.51.100.3' } })
  t.equal(declared.status, 413)
  t.same(await readJson(declared), {
    error: 'Payload Too Large',
    message: 'request body is larger than 1024 bytes',
    details: { limitBytes: 1024 },
  })
})

t.test('a chunked body without a length is cut off at the limit with 413', async (t) => {
  const status = await new Promise<number>((resolve, reject) => {
    const req = request(`${base}/t/item/1`, { method: 'POST', headers: { 'x-forwarded-for': '198.51.100.4' } }, (res) => {
      res.resume()
      resolve(res.statusCode!)
    })
    req.on('error', reject)
    req.write('x'.repeat(800))
    req.write('x'.repeat(800))
    req.end()
  })
  t.equal(status, 413)
})

t.test('unexpected error: 500 in the framework shape, internals not leaked', async (t) => {
  const response = await fetch(`${base}/t/boom`)
  t.equal(response.status, 500)
  t.same(await readJson(response), { error: 'Internal Server Error', message: 'unexpected error' })
})

t.test('budgets: headers on every limited response, 429 with retry-after past the budget', async (t) => {
  const ip = { 'x-forwarded-for': '192.0.2.77' }
  for (let n = 1; n <= 10; n++) {
    const response = await fetch(`${base}/t/limited`, { headers: ip })
    t.equal(response.status, 200)
    t.equal(response.headers.get('x-ratelimit-limit'), '10')
    t.equal(response.headers.get('x-ratelimit-remaining'), String(10 - n))
    t.ok(Number(response.headers.get('x-ratelimit-reset')) >= 1 && Number(response.headers.get('x-ratelimit-reset')) <= 10)
    t.equal(response.headers.get('retry-after'), null)
  }
  const refused = await fetch(`${base}/t/limited`, { headers: ip })
  t.equal(refused.status, 429)
  const wait = refused.headers.get('retry-after')!
  t.match(wait, /^\d+$/)
  t.equal(refused.headers.get('x-ratelimit-remaining'), '0')
  t.equal(refused.headers.get('x-ratelimit-reset'), wait)
  const body = await readJson(refused)
  t.same(body, {
    error: 'Too Many Requests',
    message: `rate limit exceeded: retry in ${wait} seconds`,
    details: { budget: 'onboard', retryAfterSeconds: Number(wait) },
  })
  // the budget is per route scope and per IP: another IP and an unlimited route are unaffected
  t.equal((await fetch(`${base}/t/limited`, { headers: { 'x-forwarded-for': '192.0.2.78' } })).status, 200)
  const unlimited = await fetch(`${base}/t/plain`, { headers: ip })
  t.equal(unlimited.status, 200)
  t.equal(unlimited.headers.get('x-ratelimit-limit'), null)
})

t.test('undecodable escapes in a path parameter: 400 with an issue, and the server keeps serving', async (t) => {
  for (const escape of ['%ZZ', '%E0%A4', '%C0%AF', '%FF', '%', 'a%2', '%ED%A0%80']) {
    const outcome = await rawExchange(port, `GET /t/item/${escape} HTTP/1.1\r\nHost: x\r\n\r\n`)
    if (outcome.kind !== 'response') return t.fail(`${escape}: ${outcome.kind}`)
    t.equal(outcome.response.status, 400, escape)
    t.match(outcome.response.headers['x-request-id'], uuid)
    t.same(JSON.parse(outcome.response.body.toString()), {
      error: 'Bad Request',
      message: 'invalid path parameter',
      issues: [
        { code: 'invalid_format', format: 'percent-encoded UTF-8', path: ['id'], message: 'not a valid percent-encoded UTF-8 string' },
      ],
    })
  }
  t.equal((await fetch(`${base}/t/plain`)).status, 200, 'still up')
})

t.test('HEAD on a GET route: its status and headers, no body; Allow names HEAD', async (t) => {
  const outcome = await rawExchange(port, 'HEAD /t/plain HTTP/1.1\r\nHost: x\r\n\r\n', { head: true })
  if (outcome.kind !== 'response') return t.fail(outcome.kind)
  t.equal(outcome.response.status, 200)
  t.equal(outcome.response.headers['content-length'], String(JSON.stringify({ hello: 'world' }).length))
  t.equal(outcome.response.headers['content-type'], 'application/json')
  t.match(outcome.response.headers['x-request-id'], uuid)
  const wrong = await fetch(`${base}/t/plain`, { method: 'DELETE' })
  t.equal(wrong.headers.get('allow'), 'GET, HEAD')
})

t.test('conflicting Content-Length headers: 400 (the kit then closes the connection)', async (t) => {
  const outcome = await rawExchange(
    port,
    'POST /t/item/1 HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: 198.51.100.40\r\nContent-Length: 8\r\nContent-Length: 2\r\n\r\n{"n":1}x',
  )
  if (outcome.kind !== 'response') return t.fail(outcome.kind)
  t.equal(outcome.response.status, 400)
  t.same(JSON.parse(outcome.response.body.toString()), {
    error: 'Bad Request',
    message: 'conflicting Content-Length headers',
    issues: [{ code: 'custom', path: ['headers', 'content-length'], message: 'sent more than once with different values' }],
  })
})

t.test('a path whose routes answer in the upstream-proxy shape gets 405, 413, 429 and 500 in it too', async (t) => {
  const wrongMethod = await fetch(`${base}/t/proxy`)
  t.equal(wrongMethod.status, 405)
  t.same(await readJson(wrongMethod), { error: 'GET is not allowed here; use POST' })
  const tooLarge = await fetch(`${base}/t/proxy`, {
    method: 'POST',
    body: 'x'.repeat(2000),
    headers: { 'x-forwarded-for': '198.51.100.50' },
  })
  t.equal(tooLarge.status, 413)
  t.same(await readJson(tooLarge), { error: 'request body is larger than 1024 bytes' })
  const failed = await fetch(`${base}/t/proxy`, { method: 'POST', body: 'boom', headers: { 'x-forwarded-for': '198.51.100.51' } })
  t.equal(failed.status, 500)
  t.same(await readJson(failed), { error: 'unexpected error' })
  let last: Response | undefined
  for (let n = 0; n <= 10; n++)
    last = await fetch(`${base}/t/proxy`, { method: 'POST', body: '{}', headers: { 'x-forwarded-for': '198.51.100.52' } })
  t.equal(last!.status, 429)
  t.match(await readJson(last!), { error: /^rate limit exceeded: retry in \d+ seconds$/ })
  t.equal(
    Object.keys(
      await readJson(await fetch(`${base}/t/proxy`, { method: 'POST', body: '{}', headers: { 'x-forwarded-for': '198.51.100.52' } })),
    ).length,
    1,
  )
})
