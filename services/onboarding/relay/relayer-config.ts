import type { Hex } from 'viem'
import { z } from 'zod'
import { envInt, parseEnv, type Env } from '../../../kit/env-parsing.ts'
import { ServiceError } from '../../../kit/errors.ts'
import { readSecretFile, Secret } from '../../../kit/secret.ts'
import type { DevnetDeployment } from '../../venue-contracts/deployment-record.ts'

const PRIVATE_KEY = /^0x[a-fA-F0-9]{64}$/

export const RelayerEnv = z.object({
  // checked in relayerKey, not here: a refused value would be echoed in the message
  RELAYER_PRIVATE_KEY: z
    .string()
    .optional()
    .describe(
      "owner key of the service's smart account (0x and 64 hex characters); never logged or returned; a development-chain deployment's test key when unset",
    ),
  RELAYER_PRIVATE_KEY_FILE: z.string().min(1).optional().describe('a file holding the key instead (e.g. a mounted secret); not both'),
  // Alto holds at most 10 unbundled operations per sender by default; 16 keeps a bundle's worth waiting
  // while the previous bundle is being mined.
  RELAYER_CONCURRENCY: envInt(16)
    .pipe(z.number().int().min(1))
    .describe('onboardings relayed at once by this process, each with its own nonce key'),
  RELAYER_RECEIPT_TIMEOUT_MS: envInt(60_000)
    .pipe(z.number().int().positive())
    .describe("how long to wait for a sent operation's receipt before the attempt counts as failed (and is resumed)"),
  RELAYER_POLLING_INTERVAL_MS: envInt(250).pipe(z.number().int().positive()).describe('how often the bundler is asked for a receipt'),
  // Shorter risks a live relayer whose event loop stalled for half of it losing its job to another.
  RELAYER_LOCK_DURATION_MS: envInt(8000)
    .pipe(z.number().int().min(1000))
    .describe(
      "how long a relayer holds a job without renewing its lock (renewed every half of it); with `RELAYER_STALLED_INTERVAL_MS`, a dead relayer's job is taken up within about their sum (11 s)",
    ),
  RELAYER_STALLED_INTERVAL_MS: envInt(3000)
    .pipe(z.number().int().min(500))
    .describe('how often each relayer looks for jobs whose relayer died'),
})

export interface RelayerConfig {
  privateKey: Secret<Hex>
  concurrency: number
  receiptTimeoutMs: number
  pollingIntervalMs: number
  lockDurationMs: number
  stalledIntervalMs: number
}

/**
 * The relayer's settings. The key comes from RELAYER_PRIVATE_KEY or RELAYER_PRIVATE_KEY_FILE, else, for
 * a development-chain deployment, from its public test key.
 */
export function relayerConfig(env: Env, deployment?: DevnetDeployment): RelayerConfig {
  const parsed = parseEnv(RelayerEnv, env, 'relayer')
  return {
    privateKey: new Secret(relayerKey(parsed, deployment)),
    concurrency: parsed.RELAYER_CONCURRENCY,
    receiptTimeoutMs: parsed.RELAYER_RECEIPT_TIMEOUT_MS,
    pollingIntervalMs: parsed.RELAYER_POLLING_INTERVAL_MS,
    lockDurationMs: parsed.RELAYER_LOCK_DURATION_MS,
    stalledIntervalMs: parsed.RELAYER_STALLED_INTERVAL_MS,
  }
}

function relayerKey(parsed: z.infer<typeof RelayerEnv>, deployment: DevnetDeployment | undefined): Hex {
  const { RELAYER_PRIVATE_KEY: inline, RELAYER_PRIVATE_KEY_FILE: file } = parsed
  if (inline && file) throw invalid('set RELAYER_PRIVATE_KEY or RELAYER_PRIVATE_KEY_FILE, not both')
  if (inline) {
    if (!PRIVATE_KEY.test(inline)) throw invalid('RELAYER_PRIVATE_KEY: must be a 32-byte hex key (0x and 64 hex characters)')
    return inline as Hex
  }
  if (file)
    return readSecretFile('relayer', 'RELAYER_PRIVATE_KEY_FILE', file, {
      check: (text) => PRIVATE_KEY.test(text),
      what: 'a 32-byte hex key',
    }) as Hex
  if (deployment) return deployment.relayer.devnetRelayerPrivateKey
  throw invalid('RELAYER_PRIVATE_KEY or RELAYER_PRIVATE_KEY_FILE is required')
}

function invalid(message: string, cause?: unknown): ServiceError {
  return new ServiceError('config_invalid', `invalid configuration for relayer: ${message}`, { cause })
}
