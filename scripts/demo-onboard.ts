// Signs and posts an onboarding for the development chain's demo partner, and prints the answer:
//   npm run demo:onboard [-- base URL] [deployment file] [--chain 42161|421614]
// Defaults: http://localhost:$PORT and the deployment that `npm start` writes once its embedded chains are up. That
// file outlives the run that wrote it, and `npm start` serves prices before its chains are up; so without a
// deployment file the demo first asks the service whether its chains are up (`details.onboarding` of /readyz on the
// ops port) and waits for them, with a deadline. Without an answer there, the file may be an earlier run's: chains
// it names that do not answer may be this run's, still starting, so the demo says it cannot tell.
// The signing and posting is scripts/demo-partner.ts, loaded once there are chains to sign on.
import { setTimeout as sleep } from 'node:timers/promises'
import { errorLine, parseCommandLine, progressReporter } from '../kit/command-line.ts'
import type { StartState } from '../kit/deferred-start.ts'

const command = parseCommandLine({
  usage: 'npm run demo:onboard -- [base URL] [deployment file] [options]',
  summary:
    "Signs an onboarding for the development chains' demo partner, posts it to POST /v1/onboard and prints the answer.\n" +
    'Base URL: http://localhost:$PORT (8080) by default. Deployment file: by default the one `npm start` writes once\n' +
    "its chains are up; the demo then waits until the service's /readyz says they are (exit 1 if they do not come up).",
  maxPositionals: 2,
  options: {
    chain: { type: 'string', default: '42161', value: 'ID', description: '42161: permit and delegation; 421614: approve, then delegation' },
    ops: {
      type: 'string',
      value: 'URL',
      description: "the service's ops listener, asked whether its chains are up (default http://localhost:$OPS_PORT, 9090)",
    },
    'wait-seconds': { type: 'string', default: '90', value: 'S', description: "how long to wait for the service's chains" },
  },
})
// the service's address: first argument, else localhost on PORT (as `npm start` reads it)
const [baseUrl = `http://localhost:${process.env.PORT ?? 8080}`, deploymentFile] = command.positionals
command.url('the base URL', baseUrl, ['http:', 'https:'])
const chainId = command.number('chain', { min: 1, integer: true })
const opsUrl = command.values.ops ?? `http://localhost:${process.env.OPS_PORT ?? 9090}`
command.url('--ops', opsUrl, ['http:', 'https:'])
const waitMs = command.number('wait-seconds', { min: 0 }) * 1000

const CHAINS_NOT_RUNNING = 'its chains are not running; start them with npm start or npm run devnet'
const CANNOT_TELL =
  `cannot tell whether the service's chains are still starting or not running: no ops listener answers at ${opsUrl}, ` +
  "and the deployment file may be an earlier run's; set OPS_PORT to the service's, or give --ops URL"

try {
  const unasked = deploymentFile === undefined && (await serviceChainsUp()) === 'unreachable'
  const { onboardDemoPartner } = await import('./demo-partner.ts')
  const noChains = unasked ? CANNOT_TELL : CHAINS_NOT_RUNNING
  const answer = await onboardDemoPartner({ baseUrl, deploymentFile, chainId, noChains })
  console.log(`POST /v1/onboard → ${answer.status}`)
  console.log(JSON.stringify(answer.body, null, 2))
  process.exitCode = answer.ok ? 0 : 1
} catch (error) {
  console.error(`demo:onboard: ${errorLine(error)}`)
  process.exitCode = 1
}

/**
 * Waits until the service reports its onboarding `ready` on /readyz: `npm start` writes the deployment file just
 * before. Says plainly why that will not happen: still starting at the deadline, or no onboarding to wait for.
 * `unreachable` when nothing answers there.
 */
async function serviceChainsUp(): Promise<'ready' | 'unreachable'> {
  const progress = progressReporter()
  const deadline = performance.now() + waitMs
  for (;;) {
    const state = await onboardingState()
    if (state === 'ready' || state === 'unreachable') {
      if (state === 'unreachable') {
        progress(`cannot ask ${opsUrl}/readyz whether the service's chains are up (set OPS_PORT or --ops); trying the deployment file`)
      }
      return state
    }
    if (state === 'unavailable') throw new Error("the service's onboarding is unavailable: its chains could not be set up (see its log)")
    if (state === 'none') {
      throw new Error(
        `${opsUrl}/readyz reports no onboarding: the service runs with ONBOARDING_ENABLED=false, or that is not its ops listener`,
      )
    }
    if (performance.now() >= deadline) {
      throw new Error(`the service's development chains are still starting after ${waitMs / 1000} s; run this again shortly`)
    }
    progress.every(`the service's development chains are still starting; waiting up to ${waitMs / 1000} s`)
    await sleep(250)
  }
}

async function onboardingState(): Promise<StartState | 'none' | 'unreachable'> {
  const response = await fetch(new URL('/readyz', opsUrl), { headers: { connection: 'close' }, signal: AbortSignal.timeout(5000) }).catch(
    () => undefined,
  )
  if (!response) return 'unreachable'
  const body = (await response.json().catch(() => undefined)) as { details?: { onboarding?: StartState } } | undefined
  return body?.details?.onboarding ?? 'none'
}
