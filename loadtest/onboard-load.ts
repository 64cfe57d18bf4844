import { keccak256, maxUint256, stringToHex } from 'viem'
import { privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts'
import { chainConfigsFromDeployment, onboardingTools } from '../services/onboarding/index.ts'
import { chainTimePlus, signOnboarding } from './partner-signer.ts'
import type { DevnetDeployment } from '../services/venue-contracts/deployment-record.ts'
import { latencyHistogram, summarize } from './latency.ts'
import { cpuShare, latencyTotals, progressLine, type LoadResult, type SecondFigures } from './load-result.ts'

const { createChainClients, readPermitDomain } = await onboardingTools()

export interface OnboardLoadOptions {
  target: string
  /** the development chains the service relays to (the file `npm run devnet` writes) */
  deployment: DevnetDeployment
  /** a chain whose token has a permit (42161 on the development chains): a partner signs two messages, no gas */
  chainId: number
  ratePerSecond: number
  durationSeconds: number
  /** one fresh partner per onboarding, each allowlisted by the service */
  partners: PrivateKeyAccount[]
  log: (line: string) => void
}

/** After the schedule ends, answers still awaited are waited for this long at most. */
const DRAIN_MS = 30_000

/** Partner keys derived from a seed: the same seed gives the same partners, so the service can allowlist them first. */
export const derivedPartners = (seed: string, count: number): PrivateKeyAccount[] =>
  Array.from({ length: count }, (_, index) => privateKeyToAccount(keccak256(stringToHex(`venue-loadtest:${seed}:${index}`))))

/** Signs one onboarding per partner (a delegation and a permit), before any clock starts. */
async function signAll(options: OnboardLoadOptions, count: number): Promise<string[]> {
  const chains = chainConfigsFromDeployment(options.deployment)
  const clients = createChainClients(chains)
  try {
    const connection = clients.get(options.chainId)
    if (!connection) throw new Error(`the deployment has no chain ${options.chainId}`)
    const { publicClient, config } = connection
    const domain = await readPermitDomain(publicClient, config.contracts.usdc)
    const expiry = await chainTimePlus(publicClient, 60 * 60)
    const bodies: string[] = []
    for (const signer of options.partners.slice(0, count)) {
      const request = await signOnboarding({
        chain: config,
        client: publicClient,
        signer,
        delegation: { expiry },
        permit: { value: maxUint256, deadline: expiry, domain },
      })
      bodies.push(JSON.stringify(request))
    }
    return bodies
  } finally {
    clients.close()
  }
}

/**
 * POST /v1/onboard open-loop at a fixed rate, each request a fresh partner's signed onboarding, against the
 * development chains; latency from when the request was due to its answer (the terminal outcome, or the
 * 202 once the service's deadline passes). Onboardings are a few a second, so this runs on the main thread.
 */
export async function runOnboardLoad(options: OnboardLoadOptions): Promise<LoadResult> {
  const count = Math.floor(options.ratePerSecond * options.durationSeconds)
  if (options.partners.length < count) throw new Error(`${count} onboardings need ${count} partners, ${options.partners.length} given`)
  options.log(`signing ${count} onboardings for chain ${options.chainId}`)
  const bodies = await signAll(options, count)
  const url = new URL('/v1/onboard', options.target)
  const cpu = cpuShare(1)
  const total = latencyHistogram()
  let window = { offered: 0, answered: 0, errors: 0, latency: latencyHistogram() }
  const outcomes: Record<string, number> = {}
  const startedAt = new Date()
  const started = performance.now() + 100
  const posted: Array<Promise<void>> = []
  const post = async (body: string, dueAt: number) => {
    let outcome: string
    try {
      const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
      const answer = (await response.json().catch(() => ({}))) as { status?: string }
      outcome = response.status === 200 ? String(answer.status) : `${response.status}${answer.status ? ` ${answer.status}` : ''}`
    } catch {
      outcome = 'connection failed'
    }
    outcomes[outcome] = (outcomes[outcome] ?? 0) + 1
    const latencyUs = Math.max(1, Math.round((performance.now() - dueAt) * 1000))
    window.latency.recordValue(latencyUs)
    total.recordValue(latencyUs)
    window.answered++
    if (outcome !== 'confirmed' && outcome !== 'reverted') window.errors++
  }
  let sent = 0
  const scheduler = setInterval(() => {
    const due = Math.min(count, Math.floor(((performance.now() - started) / 1000) * options.ratePerSecond))
    for (; sent < due; sent++) {
      window.offered++
      posted.push(post(bodies[sent]!, started + (sent * 1000) / options.ratePerSecond))
    }
    if (sent >= count) clearInterval(scheduler)
  }, 2)
  const series: SecondFigures[] = []
  const lastSecond = options.durationSeconds + DRAIN_MS / 1000
  for (let second = 1; second <= lastSecond; second++) {
    await new Promise((resolve) => setTimeout(resolve, started + second * 1000 - performance.now()))
    const current = window
    window = { offered: 0, answered: 0, errors: 0, latency: latencyHistogram() }
    const answered = Object.values(outcomes).reduce((sum, n) => sum + n, 0)
    const figures: SecondFigures = {
      second,
      offeredPerSecond: current.offered,
      deliveredPerSecond: current.answered,
      errors: current.errors,
      latency: summarize(current.latency),
      extra: { awaited: sent - answered },
    }
    series.push(figures)
    options.log(progressLine(figures, cpu.sinceLast(), 'answers'))
    if (second >= options.durationSeconds && sent >= count && sent === answered) break
  }
  clearInterval(scheduler)
  const answered = Object.values(outcomes).reduce((sum, n) => sum + n, 0)
  return {
    mode: 'onboard',
    target: options.target,
    startedAt: startedAt.toISOString(),
    durationSeconds: options.durationSeconds,
    options: {
      target: options.target,
      chainId: options.chainId,
      ratePerSecond: options.ratePerSecond,
      durationSeconds: options.durationSeconds,
    },
    latencyMeaning:
      'request due on the schedule to the answer: the terminal outcome (confirmed or reverted), or the 202 once the service stops waiting',
    series,
    latency: latencyTotals(total),
    totals: { offered: count, answered, unanswered: count - answered, outcomes },
    loadClient: { workers: 0, cores: 1, cpuPercentOfCores: cpu.overall() },
    notes: ["partners sign before the clock starts: the figures are the service's and the chain's, not the signing"],
  }
}
