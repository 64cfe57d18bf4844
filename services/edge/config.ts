import { z } from 'zod'
import { envBool, envInt, envList, parseEnv, type Env } from '../../kit/config.ts'
import { StreamEnv } from '../stream/config.ts'

const EdgeEnv = z.object({
  PORT: envInt(8080),
  HOST: z.string().default('0.0.0.0'),
  /** request bodies above this get 413 */
  BODY_LIMIT_BYTES: envInt(64 * 1024),
  /** the feed is `stale` / `degraded` when no tick has arrived for this long */
  STALE_AFTER_MS: envInt(10_000),
  RATE_LIMITS_ENABLED: envBool(true),
  /** proxies whose X-Forwarded-For is believed: IPs or CIDR ranges */
  TRUSTED_PROXIES: envList(),

  ...StreamEnv.shape,
})

export type EdgeConfig = z.infer<typeof EdgeEnv>

export const edgeConfig = (env: Env): EdgeConfig => parseEnv(EdgeEnv, env, 'edge')
