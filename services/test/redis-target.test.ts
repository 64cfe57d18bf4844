// REDIS_SENTINELS and REDIS_SENTINEL_NAME: parsed at start into the Sentinels ioredis asks for the primary.
import t from 'tap'
import { processConfig, redisTarget } from '../process-env.ts'

t.test('REDIS_SENTINELS names the Sentinels; REDIS_SENTINEL_NAME the monitored primary', async (t) => {
  const config = processConfig({ REDIS_SENTINELS: '10.0.0.5:26379, sentinel-1.redis:26380,[fd00::7]:26379', REDIS_SENTINEL_NAME: 'venue' })
  t.same(redisTarget(config), {
    sentinels: [
      { host: '10.0.0.5', port: 26379 },
      { host: 'sentinel-1.redis', port: 26380 },
      { host: 'fd00::7', port: 26379 },
    ],
    name: 'venue',
  })
  t.same(redisTarget(processConfig({ REDIS_SENTINELS: '10.0.0.5:26379' })), {
    sentinels: [{ host: '10.0.0.5', port: 26379 }],
    name: 'mymaster',
  })
})

t.test('REDIS_URL alone, or no Redis at all', async (t) => {
  t.same(redisTarget(processConfig({ REDIS_URL: 'redis://127.0.0.1:6379' })), { url: 'redis://127.0.0.1:6379' })
  t.equal(redisTarget(processConfig({})), undefined)
})

t.test('a wrong setting stops the start, naming the variable', async (t) => {
  t.throws(() => processConfig({ REDIS_SENTINELS: '10.0.0.5' }), {
    code: 'config_invalid',
    message: 'invalid configuration for process: REDIS_SENTINELS="10.0.0.5": must be host:port entries, comma-separated',
  })
  t.throws(() => processConfig({ REDIS_SENTINELS: '10.0.0.5:26379', REDIS_URL: 'redis://127.0.0.1:6379' }), {
    code: 'config_invalid',
    message: 'invalid configuration for process: REDIS_URL and REDIS_SENTINELS are both set; set one (the Sentinels name the primary)',
  })
  t.throws(() => processConfig({ REDIS_SENTINELS: '10.0.0.5:26379', REDIS_SENTINEL_NAME: 'a b' }), { code: 'config_invalid' })
})
