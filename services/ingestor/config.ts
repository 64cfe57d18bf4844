import { z } from 'zod'
import { envBool, envInt, envNumber, parseEnv, type Env } from '../../kit/env-parsing.ts'
import { readSecretFile, Secret } from '../../kit/secret.ts'

const IngestorEnv = z
  .object({
    FEED_SOURCE: z.enum(['simulator', 'hermes', 'replay']).default('simulator'),
    SIM_TICKS_PER_SECOND: envNumber(200),
    SIM_SEED: envInt(1),
    /** query parameters (e.g. a provider's ACCESS_TOKEN) and a path prefix are kept */
    HERMES_URL: z.url().default('https://hermes.pyth.network'),
    /** the Hermes API key, sent as a Bearer token; never logged */
    HERMES_API_KEY: z.string().min(1).optional(),
    /** a file holding the key instead (e.g. a mounted secret) */
    HERMES_API_KEY_FILE: z.string().min(1).optional(),
    /** false: Hermes refuses the stream (404) while it names unknown ids, and the source drops them itself */
    HERMES_IGNORE_INVALID_PRICE_IDS: envBool(true),
    REPLAY_FILE: z.string().optional(),
    REPLAY_SPEED: envNumber(1),
    REPLAY_LOOP: envBool(false),
  })
  .refine((config) => config.FEED_SOURCE !== 'replay' || config.REPLAY_FILE, {
    message: 'REPLAY_FILE is required when FEED_SOURCE=replay',
    path: ['REPLAY_FILE'],
  })
  .refine((config) => !(config.HERMES_API_KEY && config.HERMES_API_KEY_FILE), {
    message: 'set HERMES_API_KEY or HERMES_API_KEY_FILE, not both',
    path: ['HERMES_API_KEY'],
  })

type ParsedEnv = z.infer<typeof IngestorEnv>

export type IngestorConfig = Omit<ParsedEnv, 'HERMES_API_KEY' | 'HERMES_API_KEY_FILE'> & {
  /** from HERMES_API_KEY or HERMES_API_KEY_FILE */
  hermesApiKey: Secret<string> | undefined
}

export function ingestorConfig(env: Env): IngestorConfig {
  const { HERMES_API_KEY: inline, HERMES_API_KEY_FILE: file, ...config } = parseEnv(IngestorEnv, env, 'ingestor')
  const key =
    inline ??
    (file === undefined
      ? undefined
      : readSecretFile('ingestor', 'HERMES_API_KEY_FILE', file, { check: (text) => text !== '' && !/\s/.test(text), what: 'one key' }))
  return { ...config, hermesApiKey: key === undefined ? undefined : new Secret(key) }
}
