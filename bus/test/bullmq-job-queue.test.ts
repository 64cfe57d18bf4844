import { randomUUID } from 'node:crypto'
import { Redis } from 'ioredis'
import t from 'tap'
import { bullmqJobQueue } from '../bullmq-job-queue.ts'
import { startRedis } from '../../test/support/servers.ts'
import { jobQueueContract } from './job-queue-contract.ts'
import { silentLogger } from '../../test/support/silent-logger.ts'

const redisServer = await startRedis()
const redis = new Redis(redisServer.url, { maxRetriesPerRequest: null })
t.teardown(async () => {
  await redis.quit()
  await redisServer.dispose()
})
const logger = silentLogger()
const prefixes = new WeakMap<object, string>()

jobQueueContract(t, async (options, shareWith) => {
  // a fresh key prefix per test; a second handle (as another process would open) shares it
  const prefix = (shareWith && prefixes.get(shareWith)) ?? `t${randomUUID().slice(0, 8)}`
  const queue = bullmqJobQueue<{ n: number }, { doubled: number }>({ ...options, redis, prefix, logger })
  prefixes.set(queue, prefix)
  return queue
})
