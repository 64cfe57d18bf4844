import { z } from 'zod'
import { isIP } from 'node:net'
import { envBool, envHost, envInt, envList, envPort, parseEnv, type Env } from '../../kit/env-parsing.ts'
import { StreamEnv } from '../stream/config.ts'

const EdgeEnv = z.object({
  /** 0 picks a free port */
  PORT: envPort(8080),
  /** the address to listen on: an IP address (0.0.0.0 and :: for every interface) or localhost */
  HOST: envHost('0.0.0.0'),
  /** request bodies above this get 413 */
  BODY_LIMIT_BYTES: envInt(64 * 1024, { min: 1, max: 16 * 1024 * 1024 }),
  /** the feed is `stale` / `degraded` when no tick has arrived for this long */
  STALE_AFTER_MS: envInt(10_000, { min: 1 }),
  RATE_LIMITS_ENABLED: envBool(true),
  /**
   * true: /metrics, /healthz and /readyz are also answered on PORT (they always are on OPS_PORT); off by
   * default, since they tell anyone queue depths, error counts and dependency states and draw on no budget
   */
  OPS_ROUTES_ON_PUBLIC_PORT: envBool(false),
  /** proxies whose X-Forwarded-For is believed: IPs or CIDR ranges */
  TRUSTED_PROXIES: envList().refine(
    (entries) => entries.every(isAddressOrRange),
    'must be a comma-separated list of IP addresses or CIDR ranges (e.g. 10.0.0.0/8,192.168.1.5)',
  ),

  ...StreamEnv.shape,
})

export type EdgeConfig = z.infer<typeof EdgeEnv>

export const edgeConfig = (env: Env): EdgeConfig => parseEnv(EdgeEnv, env, 'edge')

function isAddressOrRange(entry: string): boolean {
  const [address, prefix, ...rest] = entry.split('/')
  const family = isIP(address!)
  if (family === 0 || rest.length > 0) return false
  return prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128))
}
