import { readFile } from 'node:fs/promises'
import type { Hex } from 'viem'
import { z } from 'zod'
import { ServiceError } from '../../../kit/errors.ts'
import type { Logger } from '../../../kit/logger.ts'
import { SPEC_DELEGATION_DOMAIN, type DevnetDeployment } from '../../venue-contracts/deployment-record.ts'
import { ENTRY_POINT_VERSIONS } from '../../venue-contracts/entry-points.ts'
import { EnvAddress } from './chain-config.ts'

// The deployment record DEPLOYMENT_FILE holds (a development chain writes one), or what the embedded
// default's chains report.

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
      entryPointVersion: z.enum(ENTRY_POINT_VERSIONS).default('0.8'),
      accountFactory: EnvAddress,
      contracts: z.object({ trading: EnvAddress, tradingStorage: EnvAddress, usdc: EnvAddress, wrapper: EnvAddress }),
      usdcHasPermit: z.boolean(),
      delegationDomain: z
        .object({ name: z.string().min(1), version: z.string().min(1), typeName: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/) })
        .default(SPEC_DELEGATION_DOMAIN),
      paymaster: EnvAddress.optional(),
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

/** Development chains started for the embedded default, and how to stop them. */
export interface EmbeddedChains {
  deployment: DevnetDeployment
  stop(): Promise<void>
}

/**
 * Starts development chains for the embedded default (`npm start`, which passes deploy/devnet's starter).
 * Production entry points pass none: there the chains are configuration.
 */
export type EmbeddedChainStarter = (logger: Logger) => Promise<EmbeddedChains>
