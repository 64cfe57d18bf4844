import { z } from 'zod'
import { envInt, envList } from '../../kit/env-parsing.ts'

/** The price stream's settings (spec 6 and 8), part of the edge's configuration. Limits are per replica. */
export const StreamEnv = z.object({
  /** browser origins allowed to open the stream, e.g. https://app.example.com; `*` allows any */
  STREAM_ALLOWED_ORIGINS: envList(),
  STREAM_MAX_CONNECTIONS_PER_IP: envInt(20, { min: 1 }),
  STREAM_MAX_CONNECTIONS: envInt(500, { min: 1 }),
  STREAM_UPGRADES_PER_IP_PER_MINUTE: envInt(60, { min: 1 }),
  /** upgrades this replica admits per second from every client together (a reconnect storm is spread out) */
  STREAM_UPGRADES_PER_SECOND: envInt(1000, { min: 1 }),
  /** upgrades admitted at once before STREAM_UPGRADES_PER_SECOND applies */
  STREAM_UPGRADE_BURST: envInt(1000, { min: 1 }),
  /** the longest Retry-After given to an upgrade refused by the admission rate */
  STREAM_UPGRADE_RETRY_MAX_SECONDS: envInt(30, { min: 1, max: 3600 }),
  STREAM_MESSAGES_PER_SOCKET_PER_MINUTE: envInt(120, { min: 1 }),
  /** above this many bytes buffered for a client, its ticks are dropped and reported in a `gap` */
  STREAM_SLOW_CLIENT_BYTES: envInt(1024 * 1024, { min: 16 * 1024 }),
  STREAM_PING_INTERVAL_MS: envInt(30_000, { min: 1 }),
  /** how long the fan-out may hold the event loop in one turn before later ticks wait and conflate */
  STREAM_FANOUT_SLICE_MS: envInt(20, { min: 0 }),
  /** on shutdown, how long to wait for buffered frames to reach clients before closing with 1001 */
  STREAM_DRAIN_TIMEOUT_MS: envInt(5_000, { min: 0 }),
})

export type StreamConfig = z.infer<typeof StreamEnv> & {
  /** the edge's switch for every per-IP budget (REST and stream) */
  RATE_LIMITS_ENABLED: boolean
}
