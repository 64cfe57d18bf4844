import { z } from 'zod'
import { envBool, envInt, envNumber, parseEnv, type Env } from '../../kit/env-parsing.ts'
import { readSecretFile, Secret } from '../../kit/secret.ts'

export const IngestorEnv = z
  .object({
    FEED_SOURCE: z
      .enum(['simulator', 'hermes', 'replay'])
      .default('simulator')
      .describe("where prices come from: the seeded simulator, Pyth's Hermes stream, or a recorded file"),
    SIM_TICKS_PER_SECOND: envNumber(200).describe('simulator quotes per second across all open pairs'),
    SIM_SEED: envInt(1).describe('simulator seed: the same seed gives the same walk'),
    HERMES_URL: z
      .url()
      .default('https://hermes.pyth.network')
      .describe(
        "Hermes base URL when `FEED_SOURCE=hermes`; its path prefix and query parameters (e.g. a provider's `ACCESS_TOKEN`) are kept",
      ),
    HERMES_API_KEY: z.string().min(1).optional().describe('Hermes API key, sent as `Authorization: Bearer`; never logged'),
    HERMES_API_KEY_FILE: z.string().min(1).optional().describe('a file holding only the key instead (e.g. a mounted secret); not both'),
    HERMES_IGNORE_INVALID_PRICE_IDS: envBool(true).describe(
      '`false`: Hermes refuses the stream (404) while it names unknown ids, and the feed drops them itself',
    ),
    REPLAY_FILE: z.string().optional().describe('JSONL file of recorded price rows; required when `FEED_SOURCE=replay`'),
    REPLAY_SPEED: envNumber(1).describe('1 as recorded, 10 ten times faster, 0 as fast as possible'),
    REPLAY_LOOP: envBool(false).describe('start the file again at its end'),
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
