import t, { type Test } from 'tap'
import { Redis } from 'ioredis'
import { randomUUID } from 'node:crypto'
import { ServiceError } from '../../../kit/errors.ts'
import { freePort, startRedis } from '../../../test/support/servers.ts'
import { redisCandleStore } from '../redis-candle-store.ts'
import { candleStoreContract } from './candle-store-contract.ts'

const redisServer = await startRedis()
t.teardown(() => redisServer.dispose())

async function readyClient(t: Test): Promise<Redis> {
  const redis = new Redis(redisServer.url)
  t.teardown(() => redis.quit())
  await new Promise((resolve) => redis.once('ready', resolve))
  return redis
}

candleStoreContract(t, async ({ keepPerResolution }) => {
  const redis = new Redis(redisServer.url)
  await new Promise((resolve) => redis.once('ready', resolve))
  const store = redisCandleStore({ redis, keyPrefix: `t-${randomUUID()}`, keepPerResolution })
  return { store, close: async () => void (await redis.quit()) }
})

const minute = { time: 1_772_409_600, open: 1, openAt: 1_772_409_600, high: 1, low: 1, close: 1, closeAt: 1_772_409_600 }

t.test('a Redis that has forgotten the script gets it again', async (t) => {
  const redis = await readyClient(t)
  const store = redisCandleStore({ redis, keyPrefix: `t-${randomUUID()}`, keepPerResolution: 10 })
  await store.merge('BTC-USD', [minute])
  await redis.script('FLUSH')
  await store.merge('BTC-USD', [{ ...minute, high: 2 }])
  t.strictSame(await store.read('BTC-USD', '1', 0, 4e9, 10), [{ ...minute, high: 2 }])
})

t.test('unreachable: not connected, or no answer in time, rejects with upstream_unavailable', async (t) => {
  const closed = new Redis(`redis://127.0.0.1:${await freePort()}`, { lazyConnect: true })
  t.teardown(() => closed.disconnect())
  const offline = redisCandleStore({ redis: closed, keyPrefix: 'gone', keepPerResolution: 10 })
  await t.rejects(offline.read('BTC-USD', '1', 0, 10, 10), {
    code: 'upstream_unavailable',
    message: 'the candle store cannot be reached; retry shortly',
  })
  await t.rejects(offline.merge('BTC-USD', [minute]), ServiceError)

  const redis = await readyClient(t)
  const admin = await readyClient(t)
  const slow = redisCandleStore({ redis, keyPrefix: `t-${randomUUID()}`, keepPerResolution: 10, timeoutMs: 100 })
  // writes wait while Redis is paused for writes (the unpause, not being a write, goes through)
  await admin.call('CLIENT', 'PAUSE', '5000', 'WRITE')
  await t.rejects(slow.merge('BTC-USD', [minute]), { code: 'upstream_unavailable' })
  await admin.call('CLIENT', 'UNPAUSE')
})
