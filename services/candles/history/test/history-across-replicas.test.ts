// Two edges sharing one Redis and one history source: identical concurrent requests on both cost one
// upstream call, a failure is shared as well, and a restarted edge does not ask again what was asked.

import t, { type Test } from 'tap'
import { Redis } from 'ioredis'
import { randomUUID } from 'node:crypto'
import { startHistoryStandin } from '../../../../standins/history/index.ts'
import { redisHistoryLedger } from '../history-ledger.ts'
import { readJson } from '../../../../test/support/http.ts'
import { freePort, startRedis } from '../../../../test/support/servers.ts'
import { historyFixture, NOW } from './history-fixture.ts'

const redisServer = await startRedis()
t.teardown(() => redisServer.dispose())

/** A Redis client once it is ready, as the service opens one. */
async function readyRedis(t: Test): Promise<Redis> {
  const redis = new Redis(redisServer.url)
  t.teardown(() => redis.quit())
  await new Promise((resolve) => redis.once('ready', resolve))
  return redis
}

async function replicas(t: Test, count: number) {
  const standin = await startHistoryStandin({ anchorMs: (NOW - 600) * 1000, now: () => NOW * 1000 })
  t.teardown(() => standin.close())
  const keyPrefix = `t-${randomUUID()}`
  const edges = []
  for (let index = 0; index < count; index++) {
    const redis = await readyRedis(t)
    edges.push(await historyFixture(t, { standin, redis, keyPrefix }))
  }
  return { standin, edges, keyPrefix }
}

const request = { pair: 'BTC-USD', fromTimestampSeconds: NOW - 7 * 86_400, toTimestampSeconds: NOW, resolution: '60' }

t.test('20 concurrent identical requests spread over two replicas: one upstream call, one answer', async (t) => {
  const { standin, edges } = await replicas(t, 2)
  const answers = await Promise.all(Array.from({ length: 20 }, (_, index) => edges[index % 2]!.ohlc(request).then(readJson)))
  t.equal(standin.historyRequests.length, 1)
  t.equal(answers[0].data.length, 7 * 24 - 1)
  t.ok(answers.every((answer) => JSON.stringify(answer) === JSON.stringify(answers[0])))
  const shared = async (index: number) => (await edges[index]!.metrics.historySharedCalls.get()).values
  const byFrom = [...(await shared(0)), ...(await shared(1))].reduce<Record<string, number>>(
    (sums, value) => ({ ...sums, [value.labels.from as string]: (sums[value.labels.from as string] ?? 0) + value.value }),
    {},
  )
  t.strictSame(byFrom, { replica: 18, cluster: 1 }, 'one request made it; nine waited on its replica, one replica waited on the other')
})

t.test('a failure is shared too: one call, every request the same 502', async (t) => {
  const { standin, edges } = await replicas(t, 2)
  standin.setFault('http-500')
  const responses = await Promise.all(Array.from({ length: 10 }, (_, index) => edges[index % 2]!.ohlc(request)))
  t.strictSame(
    responses.map((response) => response.status),
    Array(10).fill(502),
  )
  t.strictSame(await readJson(responses[9]!), { error: 'the history source answered HTTP 500; retry shortly' })
  t.equal(standin.historyRequests.length, 1)
})

t.test('a replica whose lock comes just after another let go takes that outcome instead of calling again', async (t) => {
  const redis = await readyRedis(t)
  const keyPrefix = `t-${randomUUID()}`
  // the other replica ends its call between this one's read of the outcome and its lock: writes the outcome, lets go
  const otherFinishes = new Map([
    ['fetched', JSON.stringify({ value: [1, 2] })],
    ['failed', JSON.stringify({ failure: 'the history source answered HTTP 500' })],
  ])
  const racing = new Proxy(redis, {
    get(target, property) {
      const member = Reflect.get(target, property, target) as unknown
      if (property !== 'set') return typeof member === 'function' ? member.bind(target) : member
      return async (key: string, ...rest: Array<string | number>) => {
        const finished = otherFinishes.get(key.split(':')[2]!)
        if (rest.includes('NX') && finished !== undefined) await target.set(`${key}:outcome`, finished, 'PX', 5000)
        return target.set(key, ...(rest as [string, 'PX', number, 'NX']))
      }
    },
  })
  const ledger = redisHistoryLedger({
    redis: racing,
    keyPrefix,
    failures: { encode: (error) => (error as Error).message, decode: (encoded) => new Error(String(encoded)) },
  })
  let calls = 0
  const call = async () => [++calls]
  const signal = AbortSignal.timeout(10_000)
  t.strictSame(await ledger.once('fetched', call, signal), { value: [1, 2], sharing: 'cluster' })
  await t.rejects(ledger.once('failed', call, signal), { message: 'the history source answered HTTP 500' })
  t.equal(calls, 0, 'no second call')
  t.equal(await redis.exists(`${keyPrefix}:call:fetched`, `${keyPrefix}:call:failed`), 0, 'both locks let go')
})

t.test('what one replica asked about, a replica started later does not ask again', async (t) => {
  const { standin, edges, keyPrefix } = await replicas(t, 1)
  const first = await readJson(await edges[0]!.ohlc(request))
  const redis = await readyRedis(t)
  const later = await historyFixture(t, { standin, redis, keyPrefix })
  t.strictSame(await readJson(await later.ohlc(request)), first)
  t.equal(standin.historyRequests.length, 1)
})

t.test('with Redis away, a request that needs history answers 502 at once rather than waiting for it', async (t) => {
  const redis = new Redis(`redis://127.0.0.1:${await freePort()}`, { lazyConnect: true, maxRetriesPerRequest: null })
  t.teardown(() => redis.disconnect())
  const edge = await historyFixture(t, { redis })
  const started = Date.now()
  const response = await edge.ohlc(request)
  t.equal(response.status, 502)
  t.strictSame(await readJson(response), { error: 'the candle store cannot be reached; retry shortly' })
  t.ok(Date.now() - started < 1000, 'at once')
  t.equal(edge.standin.historyRequests.length, 0)
})
