import { z } from 'zod'
import { envInt, envList } from '../../kit/env-parsing.ts'
import { BUDGETS, CONNECTION_CEILINGS, SOCKET_BUDGETS } from '../http/budgets.ts'

/** The price stream's settings (spec 6 and 8), part of the edge's configuration. Limits are per replica. */
export const StreamEnv = z.object({
  /** browser origins allowed to open the stream, e.g. https://app.example.com; `*` allows any */
  STREAM_ALLOWED_ORIGINS: envList(),
  STREAM_MAX_CONNECTIONS_PER_IP: envInt(CONNECTION_CEILINGS.perIp, { min: 1 }),
  STREAM_MAX_CONNECTIONS: envInt(CONNECTION_CEILINGS.total, { min: 1 }),
  STREAM_UPGRADES_PER_IP_PER_MINUTE: envInt(BUDGETS.streamUpgrades.points, { min: 1 }),
  STREAM_MESSAGES_PER_SOCKET_PER_MINUTE: envInt(SOCKET_BUDGETS.streamMessages.points, { min: 1 }),
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
