import { fileURLToPath } from 'node:url'
import type { Logger } from 'pino'
import type { EmbeddedChains } from '../../services/onboarding/index.ts'
import { startDevnet, toDeployment, writeDeployment } from './devnet.ts'

/** Where the embedded development chains' deployment is written (gitignored), for `npm run demo:onboard`. */
export const EMBEDDED_DEPLOYMENT_FILE = fileURLToPath(new URL('./out/deployment.json', import.meta.url))

/** Starts the development chains for `npm start`'s embedded default and writes their deployment record. */
export async function startEmbeddedChains(logger: Logger): Promise<EmbeddedChains> {
  const devnet = await startDevnet({ logger: logger.child({ module: 'devnet' }) })
  await writeDeployment(devnet, EMBEDDED_DEPLOYMENT_FILE)
  logger.info({ file: EMBEDDED_DEPLOYMENT_FILE }, 'development-chain deployment written')
  return { deployment: toDeployment(devnet), stop: devnet.stop }
}
