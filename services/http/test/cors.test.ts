import t from 'tap'
import { request } from 'node:http'
import { originAllowlist } from '../origin-allowlist.ts'
import { jsonReply } from '../reply.ts'
import { serveRoutes } from '../../../test/support/route-server.ts'

const server = await serveRoutes(
  [
    { method: 'GET', path: '/t/item/:id', budget: 'onboard', handle: ({ params }) => jsonReply(200, { id: params.id }) },
    { method: 'POST', path: '/t/item/:id', budget: 'onboard', handle: () => jsonReply(201, {}) },
  ],
  { resolveClientIp: (peer) => peer, allowedOrigins: originAllowlist(['https://app.example.com']) },
)
const port = server.port
t.teardown(() => server.close())

interface Answer {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: string
}

/** node:http, so that Origin and Host are exactly what a browser would send */
function send(method: string, path: string, headers: Record<string, string>): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const outgoing = request({ host: '127.0.0.1', port, method, path, headers }, (response) => {
      let body = ''
      response.on('data', (chunk: Buffer) => (body += chunk.toString()))
      response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body }))
    })
    outgoing.on('error', reject)
    outgoing.end()
  })
}

const EXPOSED = 'x-request-id, x-ratelimit-limit, x-ratelimit-remaining, x-ratelimit-reset, retry-after, location, etag'
const cors = (answer: Answer) =>
  Object.fromEntries(Object.entries(answer.headers).filter(([name]) => name.startsWith('access-control-') || name === 'vary'))

t.test('an allowed origin gets its origin echoed, the exposed headers and Vary: Origin', async (t) => {
  const answer = await send('GET', '/t/item/7', { origin: 'https://App.Example.com' })
  t.equal(answer.status, 200)
  t.same(cors(answer), {
    vary: 'Origin',
    'access-control-allow-origin': 'https://App.Example.com',
    'access-control-expose-headers': EXPOSED,
  })
  t.ok(answer.headers['x-ratelimit-remaining'], 'the budget headers are there to be read')
})

t.test('another origin, or none, gets only Vary: Origin', async (t) => {
  t.same(cors(await send('GET', '/t/item/7', { origin: 'https://evil.example' })), { vary: 'Origin' })
  t.same(cors(await send('GET', '/t/item/7', { origin: 'https://app.example.com:8443' })), { vary: 'Origin' })
  t.same(cors(await send('GET', '/t/item/7', {})), { vary: 'Origin' })
})

t.test("the service's own origin is always allowed: the Origin names the host the request went to", async (t) => {
  const own = `http://127.0.0.1:${port}`
  t.equal(cors(await send('GET', '/t/item/7', { origin: own }))['access-control-allow-origin'], own)
  t.same(cors(await send('GET', '/t/item/7', { origin: 'http://127.0.0.1:1' })), { vary: 'Origin' }, 'another port is another origin')
})

t.test('a preflight from an allowed origin: 204 with the methods of the path, the allowed headers and a max age', async (t) => {
  const answer = await send('OPTIONS', '/t/item/7', {
    origin: 'https://app.example.com',
    'access-control-request-method': 'POST',
    'access-control-request-headers': 'content-type',
  })
  t.equal(answer.status, 204)
  t.equal(answer.body, '')
  t.same(cors(answer), {
    vary: 'Origin',
    'access-control-allow-origin': 'https://app.example.com',
    'access-control-allow-methods': 'GET, POST',
    'access-control-allow-headers': 'content-type, if-none-match',
    'access-control-max-age': '600',
  })
  t.match(answer.headers['x-request-id'], /^[0-9a-f-]{36}$/)
  t.notOk(answer.headers['x-ratelimit-remaining'], 'a preflight draws on no budget')
})

t.test('a preflight from another origin, or for a method the path does not serve, is a bare 403', async (t) => {
  for (const [origin, method] of [
    ['https://evil.example', 'GET'],
    ['https://app.example.com', 'DELETE'],
  ]) {
    const answer = await send('OPTIONS', '/t/item/7', { origin: origin!, 'access-control-request-method': method! })
    t.equal(answer.status, 403, `${origin} ${method}`)
    t.equal(answer.body, '')
    t.same(cors(answer), { vary: 'Origin' })
  }
})

t.test('OPTIONS that is not a preflight stays a 405 naming the methods', async (t) => {
  const answer = await send('OPTIONS', '/t/item/7', {})
  t.equal(answer.status, 405)
  t.equal(answer.headers.allow, 'GET, POST, HEAD')
})

t.test('errors carry the CORS headers too, so a page can read them', async (t) => {
  const answer = await send('GET', '/nowhere', { origin: 'https://app.example.com' })
  t.equal(answer.status, 404)
  t.equal(answer.headers['access-control-allow-origin'], 'https://app.example.com')
  t.same(JSON.parse(answer.body), { error: 'Not Found', message: 'no such route' })
})
