import t from 'tap'
import { Redis } from 'ioredis'
import { randomUUID } from 'node:crypto'
import { startRedis } from '../../../test/support/servers.ts'
import { createRateLimits } from '../rate-limits.ts'
import { jsonReply } from '../reply.ts'
import { silentLogger } from '../../../test/support/silent-logger.ts'
import { serveRoutes } from '../../../test/support/route-server.ts'
import { EVENT_DEADLINE_MS } from '../../../test/support/wait.ts'

const redisServer = await startRedis()
t.teardown(() => redisServer.dispose())

t.test('two replicas on one Redis draw on one budget per IP', async (t) => {
  const logger = silentLogger()
  const keyPrefix = `t-${randomUUID()}`
  const clients = [new Redis(redisServer.url), new Redis(redisServer.url)]
  t.teardown(() => Promise.all(clients.map((client) => client.quit())))
  // until a client is ready its replica uses its own memory budget (tested below)
  await Promise.all(clients.map((client) => new Promise((resolve) => client.once('ready', resolve))))
  const [replicaA, replicaB] = clients.map((redis) => createRateLimits({ redis, keyPrefix, logger }))
  t.equal(replicaA!.store, 'redis')
  const decisions = []
  for (let n = 0; n < 60; n++) decisions.push(await (n % 2 ? replicaA! : replicaB!).check('portfolio', '192.0.2.1'))
  t.same(
    decisions.map((decision) => decision.remaining),
    Array.from({ length: 60 }, (_, n) => 59 - n),
  )
  const refusedByA = await replicaA!.check('portfolio', '192.0.2.1')
  const refusedByB = await replicaB!.check('portfolio', '192.0.2.1')
  t.equal(refusedByA.allowed, false)
  t.equal(refusedByB.allowed, false)
  t.equal(refusedByA.limit, 60)
  t.equal((await replicaA!.check('portfolio', '192.0.2.2')).allowed, true, 'another IP has its own budget')
  t.equal((await replicaB!.check('status', '192.0.2.1')).remaining, 59, 'another budget is separate')
})

t.test("a replica busy past the store's timeout still takes the store's answer that came meanwhile", async (t) => {
  const keyPrefix = `t-${randomUUID()}`
  const clients = [new Redis(redisServer.url), new Redis(redisServer.url)]
  t.teardown(() => Promise.all(clients.map((client) => client.quit())))
  await Promise.all(clients.map((client) => new Promise((resolve) => client.once('ready', resolve))))
  const [busy, other] = clients.map((redis) => createRateLimits({ redis, keyPrefix, logger: silentLogger() }))
  t.equal((await other!.check('portfolio', '192.0.2.9')).remaining, 59)
  const asked = busy!.check('portfolio', '192.0.2.9')
  // the thread is held past the 500 ms timeout while Redis answers: when it is free, the answer and the timer are both due
  const until = performance.now() + 800
  while (performance.now() < until);
  t.equal((await asked).remaining, 58, 'the shared budget, not a memory budget of its own')
})

t.test('with Redis gone, each replica falls back to its own memory budget', async (t) => {
  const logger = silentLogger()
  const redis = new Redis(`redis://127.0.0.1:1`, { lazyConnect: true, maxRetriesPerRequest: 0, enableOfflineQueue: false })
  redis.on('error', () => {})
  t.teardown(() => redis.disconnect())
  const limits = createRateLimits({ redis, keyPrefix: 'gone', logger })
  const first = await limits.check('onboard', '192.0.2.3')
  t.equal(first.allowed, true)
  t.equal(first.remaining, 9)
})

t.test('a POST body is read whole while its budget is checked in Redis', async (t) => {
  const redis = new Redis(redisServer.url)
  t.teardown(() => redis.quit())
  await new Promise((resolve) => redis.once('ready', resolve))
  const server = await serveRoutes(
    [{ method: 'POST', path: '/t/echo', budget: 'onboard', handle: ({ body }) => jsonReply(200, { echoed: body.toString() }) }],
    { rateLimits: createRateLimits({ redis, keyPrefix: `t-${randomUUID()}`, logger: silentLogger() }), resolveClientIp: (peer) => peer },
  )
  const port = server.port
  t.teardown(() => server.close())
  const response = await fetch(`http://127.0.0.1:${port}/t/echo`, {
    method: 'POST',
    body: 'hello',
    signal: AbortSignal.timeout(EVENT_DEADLINE_MS),
  })
  t.equal(response.status, 200)
  t.same(await response.json(), { echoed: 'hello' })
  t.equal(response.headers.get('x-ratelimit-remaining'), '9')
})
