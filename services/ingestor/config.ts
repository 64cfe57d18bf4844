import { z } from 'zod'
import { envBool, envInt, envNumber, parseEnv, type Env } from '../../kit/config.ts'

const IngestorEnv = z
  .object({
    FEED_SOURCE: z.enum(['simulator', 'hermes', 'replay']).default('simulator'),
    SIM_TICKS_PER_SECOND: envNumber(200),
    SIM_SEED: envInt(1),
    HERMES_URL: z.url().default('https://hermes.pyth.network'),
    REPLAY_FILE: z.string().optional(),
    REPLAY_SPEED: envNumber(1),
    REPLAY_LOOP: envBool(false),
  })
  .refine((config) => config.FEED_SOURCE !== 'replay' || config.REPLAY_FILE, {
    message: 'REPLAY_FILE is required when FEED_SOURCE=replay',
    path: ['REPLAY_FILE'],
  })

export type IngestorConfig = z.infer<typeof IngestorEnv>

export function ingestorConfig(env: Env): IngestorConfig {
  return parseEnv(IngestorEnv, env, 'ingestor')
}
