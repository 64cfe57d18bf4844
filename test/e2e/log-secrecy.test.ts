// Secrets never reach a log line or a response: the real process, configured with credential-bearing URLs
// for every outside system and logging at trace, is driven down its failure paths (an unreachable chain
// RPC behind a permit check, an unreachable indexed source, a failing upstream feed, Redis lost), and no
// captured line may carry any of the secrets.
import t from 'tap'
import { startServiceProcess } from '../support/service-process.ts'
import { freePort, startNats, startRedis } from '../support/servers.ts'
import { waitFor } from '../support/wait.ts'

const SECRETS = {
  rpcUser: 'rpcuser-5150-AbCdEf1234567890XY',
  rpcPassword: 'rpcpass-7781',
  rpcPathKey: 'AlchemyKey1234567890abcdefXYZ',
  rpcQueryKey: 'RpcQueryKey-998877',
  bundlerKey: 'BundlerKey0123456789abcdefXY',
  indexerPathKey: 'GraphKey0123456789abcdef0123',
  indexerQueryKey: 'IdxQuery-4455',
  hermesPassword: 'hermespass-3321',
  hermesQueryKey: 'HermesKey-1122',
  redisPassword: 'redispw-0f3c9a1e',
  natsPassword: 'natspass-6619',
}

const PARTNER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'

t.test('no log line or response carries a configured secret, on any failure path, at any level', async (t) => {
  const [redis, nats, closedPort] = await Promise.all([startRedis({ password: SECRETS.redisPassword }), startNats(), freePort()])
  t.teardown(() => redis.dispose())
  t.teardown(() => nats.dispose())
  const dead = `127.0.0.1:${closedPort}`
  const chain = (suffix: string, value: string) => [`CHAIN_42161_${suffix}`, value] as const
  const service = startServiceProcess(['edge', 'ingestor'], {
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'trace',
    BUS_NAMESPACE: `secrecy${Date.now()}`,
    NATS_URL: `nats://natsuser:${SECRETS.natsPassword}@127.0.0.1:${nats.port}`,
    REDIS_URL: `redis://:${SECRETS.redisPassword}@127.0.0.1:${redis.port}`,
    FEED_SOURCE: 'hermes',
    HERMES_URL: `http://feeduser:${SECRETS.hermesPassword}@${dead}/?api_key=${SECRETS.hermesQueryKey}`,
    INDEXER_URL_42161: `http://${dead}/api/${SECRETS.indexerPathKey}/subgraphs/id/venue?api_key=${SECRETS.indexerQueryKey}`,
    INDEXER_URL_421614: `http://${dead}/api/${SECRETS.indexerPathKey}/subgraphs/id/venue-test`,
    ONBOARD_ALLOWLIST: PARTNER,
    ...Object.fromEntries([
      chain('RPC_URL', `http://${SECRETS.rpcUser}:${SECRETS.rpcPassword}@${dead}/v2/${SECRETS.rpcPathKey}?apikey=${SECRETS.rpcQueryKey}`),
      chain('BUNDLER_URL', `http://${dead}/rpc/${SECRETS.bundlerKey}`),
      chain('TRADING', '0x1000000000000000000000000000000000000001'),
      chain('TRADING_STORAGE', '0x1000000000000000000000000000000000000002'),
      chain('USDC', '0x1000000000000000000000000000000000000003'),
      chain('WRAPPER', '0x1000000000000000000000000000000000000004'),
    ]),
  })
  t.teardown(() => service.stop())
  const listening = await service.waitForLog('edge listening')
  const base = `http://127.0.0.1:${Number(listening.port)}`
  const ops = `http://127.0.0.1:${Number((await service.waitForLog('ops endpoints listening')).port)}`
  const responses: string[] = []
  const call = async (path: string, init?: RequestInit, origin = base) => {
    const response = await fetch(origin + path, init)
    responses.push(`${response.status} ${JSON.stringify([...response.headers])} ${await response.text()}`)
    return response.status
  }

  // the unreachable chain fails the onboarding (viem's error, the cause, embeds the URL)
  const permit = {
    chainId: 42161,
    partner: PARTNER,
    permit: { value: '1000000', nonce: '0', deadline: '4102444800', signature: `0x${'ab'.repeat(65)}` },
  }
  const onboardStatus = await call('/v1/onboard', {
    method: 'POST',
    body: JSON.stringify(permit),
    headers: { 'content-type': 'application/json' },
  })
  t.ok(onboardStatus >= 500, `the unreachable chain fails the onboarding (${onboardStatus})`)
  // the indexed source is unreachable
  t.equal(await call('/v1/pairs?chainId=42161'), 502)
  t.equal(await call('/v1/limits?trader=0x70997970C51812dc3A010C7d01b50e0d17dc79C8&chainId=421614'), 502)
  // the upstream feed fails and is retried
  await waitFor(() => service.logs.some((line) => line.includes('"msg":"stream failed"')), { timeoutMs: 10_000, what: 'the feed failure' })
  // Redis goes away under the running edge: rate limits fall back, errors are logged
  await redis.stop()
  t.equal(await call('/v1/status'), 200)
  await waitFor(() => service.logs.some((line) => line.includes('"msg":"Redis connection error"')), {
    timeoutMs: 10_000,
    what: 'the Redis error',
  })
  t.equal(await call('/metrics', undefined, ops), 200)

  const everything = [...service.logs, ...responses].join('\n')
  for (const [name, secret] of Object.entries(SECRETS)) {
    for (const spelling of [secret, encodeURIComponent(secret)]) {
      const carriers = [...service.logs, ...responses].filter((line) => line.includes(spelling))
      t.same(carriers, [], `${name} appears nowhere`)
    }
  }
  // the failures were logged (masked), not swallowed
  // the chain's check could not reach the node at start, so the onboarding fails before its permit check
  const permitFailure = service.logs.find((line) => line.includes('"msg":"request failed"') && line.includes('not available yet'))
  t.match(permitFailure, `URL: http://${dead}/v2/***?apikey=***`, "viem's message is logged with the key masked")
  t.match(everything, `"msg":"indexed data source failing"`)
})
