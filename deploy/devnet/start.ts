// Starts the onboarding devnet and keeps it running until SIGINT or SIGTERM:
//   npm run devnet [-- --out FILE]
// Logs go to stderr (LOG_LEVEL, default "info"); stdout gets one summary line once everything is up.
import { relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { pino } from 'pino'
import { parseCommandLine } from '../../kit/command-line.ts'
import type { Devnet } from './devnet.ts'

const defaultDeploymentFile = fileURLToPath(new URL('./out/deployment.json', import.meta.url))
const command = parseCommandLine({
  usage: 'npm run devnet -- [options]',
  summary:
    'Starts the onboarding development chains (anvil and the alto bundler per chain, EntryPoint and the venue\n' +
    'contracts deployed), writes their deployment record, and runs until SIGINT or SIGTERM. Logs on stderr\n' +
    '(LOG_LEVEL, default info); one summary line on stdout once everything is up.',
  options: {
    out: {
      type: 'string',
      default: relative(process.cwd(), defaultDeploymentFile),
      value: 'FILE',
      description: 'where the deployment record is written',
    },
  },
})
const deploymentFile = resolve(command.values.out)
// the chains' code is loaded once the command line is read: --help answers at once
const { startDevnet, writeDeployment } = await import('./devnet.ts')
const logger = pino({ level: process.env.LOG_LEVEL ?? 'info' }, pino.destination(2))

try {
  const startedAt = performance.now()
  const devnet = await startDevnet({ logger })
  await writeDeployment(devnet, deploymentFile).catch(async (error: unknown) => {
    await devnet.stop()
    throw error
  })
  // Until here, a signal ends this process at once, and the kernel or the exit hook ends the children.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => void stop(devnet, signal))
  }
  console.log(summary(devnet, performance.now() - startedAt))
} catch (error) {
  logger.error(error, 'the devnet did not start')
  process.exitCode = 1
}

async function stop(devnet: Devnet, signal: NodeJS.Signals): Promise<void> {
  logger.info({ signal }, 'stopping the devnet')
  await devnet.stop()
  logger.info('devnet stopped')
}

function summary(devnet: Devnet, elapsedMs: number): string {
  const chains = devnet.chains.map((chain) => `${chain.chainId} rpc ${chain.rpcUrl} bundler ${chain.bundlerUrl}`)
  const relativePath = relative(process.cwd(), deploymentFile)
  const file = relativePath.startsWith('..') ? deploymentFile : relativePath
  return `devnet up in ${(elapsedMs / 1000).toFixed(1)} s: ${chains.join('; ')}; deployment in ${file}; Ctrl-C stops it`
}
