// Onboarding: POST /v1/onboard at a steady rate of distinct partners against the development chain (anvil +
// alto + EntryPoint v0.8), through BullMQ on a real Redis to the relayer: onboardings/s and POST-to-answer
// latency. Target: at least 10 onboardings/s sustained with p99 under 1.5 s.
// Usage: npx tsx bench/onboard.ts [--rates 10,15] [--seconds 20] [--concurrency 16]
import { randomUUID } from 'node:crypto'
import { loadavg } from 'node:os'
import { parseArgs } from 'node:util'
import { Redis } from 'ioredis'
import { pino } from 'pino'
import { maxUint256 } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { createMetrics } from '../kit/metrics.ts'
import { startDevnet, toDeployment } from '../deploy/devnet/devnet.ts'
import { clientIpResolver } from '../services/http/client-ip.ts'
import { createHttpServer } from '../services/http/http-server.ts'
import { createRateLimits } from '../services/http/rate-limits.ts'
import { checkChains } from '../services/onboarding/chain-checks.ts'
import { createChainClients } from '../services/onboarding/chain-clients.ts'
import { onboardingConfig } from '../services/onboarding/config.ts'
import { onboardingRoutes } from '../services/onboarding/onboard-routes.ts'
import { chainTimePlus, signOnboarding } from '../services/onboarding/partner-client.ts'
import { readPermitDomain } from '../services/onboarding/permit-domain.ts'
import { createOnboardingQueue } from '../services/onboarding/relay-job.ts'
import { relayerConfig } from '../services/relayer/config.ts'
import { startRelayer } from '../services/relayer/relayer.ts'
import { startRedis } from '../test/support/servers.ts'
import { printTable, writeResult } from './report.ts'

const { values: args } = parseArgs({
  options: {
    rates: { type: 'string', default: '10,15' },
    seconds: { type: 'string', default: '20' },
    concurrency: { type: 'string', default: '16' },
  },
})
const rates = args.rates.split(',').map(Number)
const seconds = Number(args.seconds)
const logger = pino({ level: 'warn' })

const devnet = await startDevnet({ chainIds: [42161] })
const deployment = toDeployment(devnet)
const redisServer = await startRedis()
const redis = new Redis(redisServer.url, { maxRetriesPerRequest: null })

// Distinct partners, signed before the clock starts: the bench measures the service, not the signing.
const totalRequests = rates.reduce((sum, rate) => sum + rate * seconds, 0) + 1
const partners = Array.from({ length: totalRequests }, () => privateKeyToAccount(generatePrivateKey()))
const config = onboardingConfig({ ONBOARD_ALLOWLIST: partners.map((partner) => partner.address).join(',') }, deployment)
const clients = createChainClients(config.chains)
const { support } = await checkChains(config.chains, clients, logger)
const queue = createOnboardingQueue({ redis, namespace: `bench${randomUUID().slice(0, 8)}`, logger })
const metrics = createMetrics()
const relayer = startRelayer({
  config: relayerConfig({ RELAYER_POLLING_INTERVAL_MS: '50', RELAYER_CONCURRENCY: args.concurrency }, deployment),
  chains: config.chains,
  clients,
  queue,
  logger,
  metrics,
})
const server = createHttpServer({
  logger,
  metrics,
  rateLimits: createRateLimits({ enabled: false, logger }),
  resolveClientIp: clientIpResolver([]),
  bodyLimitBytes: 65_536,
})
server.addRoutes(onboardingRoutes(Promise.resolve({ config, chains: clients, support, queue })))
const url = `http://127.0.0.1:${await server.listen('127.0.0.1', 0)}/v1/onboard`

const connection = clients.get(42161)!
const chain = connection.config
const domain = await readPermitDomain(connection.publicClient, chain.contracts.usdc)
const expiry = await chainTimePlus(connection.publicClient, 60 * 60)
const bodies: string[] = []
for (const signer of partners) {
  const request = await signOnboarding({
    chain,
    client: connection.publicClient,
    signer,
    delegation: { expiry, nonce: 0n },
    permit: { value: maxUint256, deadline: expiry, nonce: 0n, domain },
  })
  bodies.push(JSON.stringify(request))
}

interface Answer {
  outcome: string
  ms: number
  answeredAt: number
}

const postOne = async (body: string): Promise<Answer> => {
  const startedAt = performance.now()
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
  const answer = (await response.json()) as { status?: string }
  const answeredAt = performance.now()
  return { outcome: answer.status ?? String(response.status), ms: answeredAt - startedAt, answeredAt }
}

/** Posts `rate` onboardings per second for `seconds`, each at its own moment, whether or not the last has been answered. */
async function steadyRate(rate: number): Promise<Answer[]> {
  const count = rate * seconds
  const batch = bodies.splice(0, count)
  const startedAt = performance.now()
  const answers = batch.map(async (body, index) => {
    const due = startedAt + (index * 1000) / rate
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - performance.now())))
    return postOne(body)
  })
  return Promise.all(answers)
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!

// One onboarding first: the relayer's account is deployed and the code paths are warm.
const warmUp = await postOne(bodies.shift()!)
if (warmUp.outcome !== 'confirmed') throw new Error(`the warm-up onboarding was not confirmed: ${JSON.stringify(warmUp)}`)

const rows: Array<Record<string, string | number>> = []
for (const rate of rates) {
  const answers = await steadyRate(rate)
  const confirmed = answers.filter((answer) => answer.outcome === 'confirmed')
  // Sustained throughput: confirmations per second between the first answer and the last.
  const answeredAt = confirmed.map((answer) => answer.answeredAt)
  const answeringSeconds = (Math.max(...answeredAt) - Math.min(...answeredAt)) / 1000
  const latencies = answers.map((answer) => answer.ms).sort((a, b) => a - b)
  rows.push({
    'target/s': rate,
    posted: answers.length,
    confirmed: confirmed.length,
    other: answers.length - confirmed.length,
    'onboardings/s': (confirmed.length - 1) / answeringSeconds,
    'p50 ms': percentile(latencies, 50),
    'p90 ms': percentile(latencies, 90),
    'p99 ms': percentile(latencies, 99),
    'max ms': latencies.at(-1)!,
  })
}

printTable(rows)
console.log(
  `result: ${writeResult('onboard', { seconds, relayerConcurrency: Number(args.concurrency), queue: queue.kind, loadAverage: loadavg(), rows })}`,
)

server.close()
await relayer.stop()
await queue.close()
clients.close()
await redis.quit()
await redisServer.dispose()
await devnet.stop()
