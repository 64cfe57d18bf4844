import { fileURLToPath } from 'node:url'
import { readFile } from 'node:fs/promises'
import type { Hex } from 'viem'
import { z } from 'zod'
import { ServiceError } from '../../bus/errors.ts'
import type { Logger } from '../../bus/logger.ts'
import type { DevnetDeployment } from '../../deploy/devnet/devnet.ts'
import { EnvAddress } from './chain-config.ts'

// The development chain's deployment (deploy/devnet): what DEPLOYMENT_FILE holds, or what the embedded
// default starts in-process.

const PrivateKey = z
  .string()
  .regex(/^0x[a-fA-F0-9]{64}$/, 'must be a 32-byte hex key')
  .transform((key) => key as Hex)

const DeploymentFile = z.object({
  chains: z.array(
    z.object({
      chainId: z.number().int(),
      rpcUrl: z.url(),
      bundlerUrl: z.url(),
      entryPoint: EnvAddress,
      accountFactory: EnvAddress,
      contracts: z.object({ trading: EnvAddress, tradingStorage: EnvAddress, usdc: EnvAddress, wrapper: EnvAddress }),
      usdcHasPermit: z.boolean(),
    }),
  ),
  relayer: z.object({ address: EnvAddress, smartAccountAddress: EnvAddress, devnetRelayerPrivateKey: PrivateKey }),
  demoPartner: z.object({ address: EnvAddress, privateKey: PrivateKey }),
}) satisfies z.ZodType<DevnetDeployment>

export async function readDeploymentFile(file: string): Promise<DevnetDeployment> {
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (error) {
    throw new ServiceError('config_invalid', `DEPLOYMENT_FILE ${file} cannot be read`, { cause: error })
  }
  const parsed = DeploymentFile.safeParse(parseJson(text))
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`)
    throw new ServiceError('config_invalid', `DEPLOYMENT_FILE ${file} is not a deployment: ${problems.join('; ')}`)
  }
  return parsed.data
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

export interface EmbeddedDevnet {
  deployment: DevnetDeployment
  stop(): Promise<void>
}

/**
 * Starts the development chain in this process (anvil and alto as child processes), for the embedded
 * default. Imported on demand: the chain toolchain is a development dependency.
 */
/** Where the embedded development chains' deployment is written (gitignored). */
export const EMBEDDED_DEPLOYMENT_FILE = fileURLToPath(new URL('../../deploy/devnet/out/deployment.json', import.meta.url))

export async function startEmbeddedDevnet(logger: Logger): Promise<EmbeddedDevnet> {
  const { startDevnet, toDeployment, writeDeployment } = await import('../../deploy/devnet/devnet.ts')
  const devnet = await startDevnet({ logger: logger.child({ module: 'devnet' }) })
  // written where the demo script looks by default, so `npm run demo:onboard` finds the running chains
  await writeDeployment(devnet, EMBEDDED_DEPLOYMENT_FILE)
  logger.info({ file: EMBEDDED_DEPLOYMENT_FILE }, 'development-chain deployment written')
  return { deployment: toDeployment(devnet), stop: devnet.stop }
}
