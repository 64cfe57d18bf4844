// The relayer role alone in a process of its own, for tests that kill it mid-job. Environment: REDIS_URL,
// BUS_NAMESPACE, DEPLOYMENT_FILE and the RELAYER_* settings. Logs JSON lines to stdout.
import { Redis } from 'ioredis'
import { createRootLogger } from '../../kit/logger.ts'
import { createMetrics } from '../../kit/metrics.ts'
import { createChainClients } from '../../services/onboarding/chain-clients.ts'
import { setUpOnboarding } from '../../services/onboarding/config.ts'
import { createOnboardingQueue } from '../../services/onboarding/relay-job.ts'
import { relayerConfig } from '../../services/relayer/config.ts'
import { startRelayer } from '../../services/relayer/relayer.ts'

const env = process.env
const logger = createRootLogger({ level: 'info' })
const onboarding = await setUpOnboarding(env, logger)
const clients = createChainClients(onboarding.config.chains)
const redis = new Redis(env.REDIS_URL!, { maxRetriesPerRequest: null })
// A killed worker's job goes back to the queue within about 1.5 s instead of BullMQ's default minute.
const queue = createOnboardingQueue({ redis, namespace: env.BUS_NAMESPACE, lockDurationMs: 1000, stalledIntervalMs: 500, logger })
const relayer = startRelayer({
  config: relayerConfig(env, onboarding.deployment),
  chains: onboarding.config.chains,
  clients,
  queue,
  logger,
  metrics: createMetrics(),
})

process.once('SIGTERM', async () => {
  await relayer.stop()
  await queue.close()
  clients.close()
  await redis.quit()
  process.exit(0)
})
