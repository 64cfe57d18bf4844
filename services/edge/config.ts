import { z } from 'zod'
import { isIP } from 'node:net'
import { envBool, envInt, envList, envPort, parseEnv, type Env } from '../../kit/env-parsing.ts'
import { HttpEnv } from '../http/config.ts'
import { StreamEnv } from '../stream/config.ts'

export const EdgeEnv = z.object({
  PORT: envPort(8080).describe('HTTP and WebSocket port of the edge; 0 picks a free one'),
  BODY_LIMIT_BYTES: envInt(64 * 1024, { min: 1, max: 16 * 1024 * 1024 }).describe('request bodies above this get 413'),
  STALE_AFTER_MS: envInt(10_000, { min: 1 }).describe('the feed is `stale` (status `degraded`) when no tick has arrived for this long'),
  RATE_LIMITS_ENABLED: envBool(true).describe(
    "`false` lifts every per-IP budget, REST and stream (benches only); the stream's connection ceilings stay",
  ),
  OPS_ROUTES_ON_PUBLIC_PORT: envBool(false).describe(
    '`true`: `/metrics`, `/healthz` and `/readyz` are also answered on `PORT` (always on `OPS_PORT`); off by default, since they tell anyone queue depths, error counts and dependency states and draw on no budget',
  ),
  TRUSTED_PROXIES: envList()
    .refine(
      (entries) => entries.every(isAddressOrRange),
      'must be a comma-separated list of IP addresses or CIDR ranges (e.g. 10.0.0.0/8,192.168.1.5)',
    )
    .describe('proxies whose `X-Forwarded-For` is believed: IPs or CIDR ranges'),

  ...HttpEnv.shape,
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
