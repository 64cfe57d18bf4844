// Onboarding: POST /v1/onboard at a steady rate of distinct partners against the development chain (anvil +
// alto + EntryPoint v0.8), through BullMQ on a real Redis to the relayer: onboardings/s and POST-to-answer
// latency, measured by the load test's onboard mode. Target: at least 10 onboardings/s sustained with p99
// under 1.5 s.
// Usage: npm run bench:onboard [-- --rates 10,15 --seconds 20 --concurrency 16]
import { randomUUID } from 'node:crypto'
import { loadavg } from 'node:os'
import { Redis } from 'ioredis'
import { pino } from 'pino'
import { parseCommandLine, progressReporter } from '../kit/command-line.ts'
import { startRedis } from '../test/support/servers.ts'
import { printTable, writeResult } from './report.ts'

const command = parseCommandLine({
  usage: 'npm run bench:onboard -- [options]',
  summary:
    'Onboarding: POST /v1/onboard at steady rates of distinct partners against the development chain, through BullMQ\n' +
    'on a real Redis to the relayer: onboardings/s and POST-to-answer latency. Target: 10/s with p99 under 1.5 s.',
  options: {
    rates: { type: 'string', default: '10,15', value: 'LIST', description: 'onboardings per second, one step each, comma-separated' },
    seconds: { type: 'string', default: '20', value: 'S', description: 'seconds per step' },
    concurrency: { type: 'string', default: '16', value: 'N', description: "the relayer's concurrency (RELAYER_CONCURRENCY)" },
  },
})
const rates = command.numbers('rates', { min: 1, integer: true })
const seconds = command.number('seconds', { min: 1, integer: true })
const concurrency = command.number('concurrency', { min: 1, integer: true })
const logger = pino({ level: 'warn' })
const progress = progressReporter()
// the chains' and onboarding's code is loaded once the command line is read: --help answers at once
const [{ startDevnet, toDeployment }, { derivedPartners, runOnboardLoad }, { createRateLimits }, { startOnboardingStack }] =
  await Promise.all([
    import('../deploy/devnet/devnet.ts'),
    import('../loadtest/onboard-load.ts'),
    import('../services/http/rate-limits.ts'),
    import('../test/support/onboarding-stack.ts'),
  ])

progress('starting the development chain, Redis and the onboarding stack')
const devnet = await startDevnet({ chainIds: [42161] })
const deployment = toDeployment(devnet)
const redisServer = await startRedis()
const redis = new Redis(redisServer.url, { maxRetriesPerRequest: null })

// Distinct partners per step, all allowlisted; one more step of one onboarding warms the relayer up.
const steps = [{ rate: 1, seconds: 1, seed: 'bench-warm-up' }, ...rates.map((rate) => ({ rate, seconds, seed: `bench-${rate}` }))]
const partnersOf = (step: (typeof steps)[number]) => derivedPartners(`${step.seed}-${randomUUID()}`, step.rate * step.seconds)
const stepPartners = steps.map(partnersOf)
const allowlist = stepPartners.flat().map((partner) => partner.address)
// the sponsorship ceilings far above what the bench asks for and the budgets lifted (one client IP posts
// everything): it measures the relay, not the policy
const stack = await startOnboardingStack({
  deployment,
  allowlist,
  redis,
  namespace: `bench${randomUUID().slice(0, 8)}`,
  logger,
  env: { SPONSOR_DAILY_GAS: String(Number.MAX_SAFE_INTEGER) },
  relayerEnv: { RELAYER_CONCURRENCY: String(concurrency) },
  http: { logger, rateLimits: createRateLimits({ enabled: false, logger }) },
})

const rows: Array<Record<string, string | number>> = []
for (const [index, step] of steps.entries()) {
  const result = await runOnboardLoad({
    target: stack.baseUrl,
    deployment,
    chainId: 42161,
    ratePerSecond: step.rate,
    durationSeconds: step.seconds,
    partners: stepPartners[index]!,
    log: index === 0 ? () => {} : (line) => console.log(line),
  })
  const outcomes = result.totals.outcomes as Record<string, number>
  if (index === 0) {
    if (outcomes.confirmed !== 1) throw new Error(`the warm-up onboarding was not confirmed: ${JSON.stringify(outcomes)}`)
    continue
  }
  const answering = result.series.filter((point) => point.deliveredPerSecond > 0)
  rows.push({
    'target/s': step.rate,
    posted: result.totals.offered as number,
    confirmed: outcomes.confirmed ?? 0,
    other: (result.totals.offered as number) - (outcomes.confirmed ?? 0),
    // sustained: answers per second over the seconds in which answers arrived
    'onboardings/s': answering.reduce((sum, point) => sum + point.deliveredPerSecond, 0) / Math.max(1, answering.length),
    'p50 ms': result.latency.p50Ms,
    'p90 ms': result.latency.p90Ms ?? '',
    'p99 ms': result.latency.p99Ms,
    'max ms': result.latency.maxMs,
  })
}

printTable(rows)
console.log(
  `result: ${writeResult('onboard', { seconds, relayerConcurrency: concurrency, queue: stack.queue.kind, loadAverage: loadavg(), rows })}`,
)

await stack.stop()
await redis.quit()
await redisServer.dispose()
await devnet.stop()
