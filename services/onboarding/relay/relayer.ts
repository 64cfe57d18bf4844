import { PermanentJobError, type RunningJob } from '../../../bus/job-queue.ts'
import type { Logger } from '../../../kit/logger.ts'
import type { Metrics } from '../../../kit/metrics.ts'
import { QUEUES } from '../../../bus/queues.ts'
import type { ChainClients } from '../chain/chain-clients.ts'
import type { ChainConfig } from '../chain/chain-config.ts'
import { memoizeSuccess } from '../chain/memoize-success.ts'
import { RelayJobData, type OnboardingQueue, type RelayJobResult } from '../relay-job.ts'
import { openChainRelayer, type ChainRelayer } from './chain-relayer.ts'
import type { RelayerConfig } from './relayer-config.ts'
import { relayOnboarding, type Sponsorship } from './relay-onboarding.ts'
import { describeError, isPermanent } from './relay-errors.ts'
import { continuedFrom, inSpan, SpanKind } from '../../../kit/tracing.ts'

export interface RelayerDeps {
  config: RelayerConfig
  chains: ChainConfig[]
  clients: ChainClients
  queue: OnboardingQueue
  /** the per-operation gas ceiling and the day's gas (the intake's ledger) */
  sponsorship: Sponsorship
  logger: Logger
  metrics: Metrics
}

export interface Relayer {
  /** stops taking jobs and waits for the running ones */
  stop(): Promise<void>
}

const QUEUE_DEPTH_SAMPLE_MS = 5000

/** The relayer role: takes onboarding jobs from the queue and relays each as one user operation. */
export function startRelayer({ config, chains, clients, queue, sponsorship, logger, metrics }: RelayerDeps): Relayer {
  const log = logger.child({ role: 'relayer' })
  // Each chain's smart account is opened now, in the background, and again by the next job if that failed:
  // a chain that is down does not hold up the others.
  const relayers = new Map<number, () => Promise<ChainRelayer>>()
  for (const chain of chains) {
    const connection = clients.get(chain.chainId)
    if (!connection) throw new Error(`no chain clients for configured chain ${chain.chainId}`)
    const open = memoizeSuccess(() => openChainRelayer(connection, config, log))
    relayers.set(chain.chainId, open)
    open().catch((error: unknown) =>
      log.warn({ chainId: chain.chainId, error: describeError(error) }, 'relayer smart account not ready yet'),
    )
  }

  const handle = async (job: RunningJob<RelayJobData>): Promise<RelayJobResult> => {
    const parsed = RelayJobData.safeParse(job.data)
    if (!parsed.success) throw new PermanentJobError('the job data is not an onboarding')
    const { chainId } = parsed.data.request
    const relayer = relayers.get(chainId)
    if (!relayer) throw new PermanentJobError(`chain ${chainId} is not served by this relayer`)
    const jobLog = log.child({ jobId: job.id, chainId, partner: parsed.data.request.partner })
    const chain = String(chainId)
    const startedAt = performance.now()
    try {
      const span = {
        kind: SpanKind.CONSUMER,
        parent: continuedFrom(parsed.data.trace),
        attributes: { 'onboarding.id': job.id, 'chain.id': chainId },
      }
      const result = await inSpan('onboarding relay', span, async () =>
        relayOnboarding(job, parsed.data, await relayer(), sponsorship, jobLog),
      )
      const outcome = result.kind === 'relayed' ? result.response.status : result.kind
      if (result.kind === 'refused') metrics.sponsorshipRefusals.labels(chain, result.refusal.reason).inc()
      metrics.relayOutcomes.labels(chain, outcome).inc()
      metrics.relayDuration.labels(chain).observe((performance.now() - startedAt) / 1000)
      jobLog.info({ outcome }, 'onboarding relayed')
      return result
    } catch (error) {
      const permanent = isPermanent(error)
      const description = describeError(error)
      metrics.relayErrors.labels(chain, permanent ? 'permanent' : 'transient').inc()
      jobLog.warn({ error: description, attempt: job.attemptsMade + 1, retryable: !permanent }, 'relay attempt failed')
      throw permanent ? new PermanentJobError(description) : new Error(description)
    }
  }

  const worker = queue.work(handle, {
    concurrency: config.concurrency,
    lockDurationMs: config.lockDurationMs,
    stalledIntervalMs: config.stalledIntervalMs,
  })
  const sampler = setInterval(() => void sampleQueueDepth(queue, metrics, log), QUEUE_DEPTH_SAMPLE_MS)
  sampler.unref()
  log.info({ chains: chains.map((chain) => chain.chainId), concurrency: config.concurrency, queue: queue.kind }, 'relayer started')

  return {
    async stop() {
      clearInterval(sampler)
      await worker.close()
      log.info('relayer stopped')
    },
  }
}

async function sampleQueueDepth(queue: OnboardingQueue, metrics: Metrics, log: Logger): Promise<void> {
  try {
    for (const [state, count] of Object.entries(await queue.counts())) metrics.jobQueueDepth.labels(QUEUES.onboarding, state).set(count)
  } catch (error) {
    log.warn({ error: describeError(error) }, 'queue depth could not be sampled')
  }
}
