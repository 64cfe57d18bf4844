import { z } from 'zod'
import { envBool, envInt, envList, parseEnv, type Env } from '../../bus/config.ts'

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

  // The price stream (spec 6 and 8). Limits are per replica.
  /** browser origins allowed to open the stream, e.g. https://app.example.com; `*` allows any */
  STREAM_ALLOWED_ORIGINS: envList(),
  STREAM_MAX_CONNECTIONS_PER_IP: envInt(20).pipe(z.number().int().positive()),
  STREAM_MAX_CONNECTIONS: envInt(500).pipe(z.number().int().positive()),
  STREAM_UPGRADES_PER_IP_PER_MINUTE: envInt(60).pipe(z.number().int().positive()),
  STREAM_MESSAGES_PER_SOCKET_PER_MINUTE: envInt(120).pipe(z.number().int().positive()),
  /** above this many bytes buffered for a client, its ticks are dropped and reported in a `gap` */
  STREAM_SLOW_CLIENT_BYTES: envInt(1024 * 1024).pipe(z.number().int().min(16 * 1024)),
  STREAM_PING_INTERVAL_MS: envInt(30_000).pipe(z.number().int().positive()),
  /** how long the fan-out may hold the event loop in one turn before later ticks wait and conflate */
  STREAM_FANOUT_SLICE_MS: envInt(20).pipe(z.number().int().nonnegative()),
  /** on shutdown, how long to wait for buffered frames to reach clients before closing with 1001 */
  STREAM_DRAIN_TIMEOUT_MS: envInt(5_000).pipe(z.number().int().nonnegative()),
})

export type EdgeConfig = z.infer<typeof EdgeEnv>

export const edgeConfig = (env: Env): EdgeConfig => parseEnv(EdgeEnv, env, 'edge')
