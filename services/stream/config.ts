import { z } from 'zod'
import { envInt, envList } from '../../kit/env-parsing.ts'
import { BUDGETS, CONNECTION_CEILINGS, SOCKET_BUDGETS } from '../http/budgets.ts'
import { STREAM_COMPRESSIONS } from './compression.ts'

/** The price stream's settings (spec 6 and 8), part of the edge's configuration. Limits are per replica. */
export const StreamEnv = z.object({
  STREAM_ALLOWED_ORIGINS: envList().describe(
    "browser origins allowed to open the stream and answered with CORS by REST, besides the service's own, e.g. https://app.example.com; `*` allows any",
  ),
  STREAM_MAX_CONNECTIONS_PER_IP: envInt(CONNECTION_CEILINGS.perIp, { min: 1 }).describe(
    'stream connections (price and candle streams together) per client IP and replica; the next upgrade gets 429',
  ),
  STREAM_MAX_CONNECTIONS: envInt(CONNECTION_CEILINGS.total, { min: 1 }).describe(
    'stream connections (price and candle streams together) per replica; the next upgrade gets 503',
  ),
  STREAM_UPGRADES_PER_IP_PER_MINUTE: envInt(BUDGETS.streamUpgrades.points, { min: 1 }).describe(
    'stream upgrades (price and candle streams together) per client IP and minute, per replica; the next gets 429',
  ),
  STREAM_UPGRADES_PER_SECOND: envInt(1000, { min: 1 }).describe(
    'upgrades this replica admits per second from every client together, so a reconnect storm is spread out; the next gets 503 with a jittered `Retry-After`',
  ),
  STREAM_UPGRADE_BURST: envInt(1000, { min: 1 }).describe('upgrades admitted at once before `STREAM_UPGRADES_PER_SECOND` applies'),
  STREAM_UPGRADE_RETRY_MAX_SECONDS: envInt(30, { min: 1, max: 3600 }).describe(
    'the longest `Retry-After` given to an upgrade refused by the admission rate',
  ),
  STREAM_MESSAGES_PER_SOCKET_PER_MINUTE: envInt(SOCKET_BUDGETS.streamMessages.points, { min: 1 }).describe(
    'client messages per socket and minute; the next gets an `error` frame `rate_limited`',
  ),
  STREAM_SLOW_CLIENT_BYTES: envInt(1024 * 1024, { min: 16 * 1024 }).describe(
    'above this many bytes buffered for a socket, its ticks (candle frames) are dropped and counted for its next `gap`',
  ),
  STREAM_PING_INTERVAL_MS: envInt(30_000, { min: 1 }).describe('heartbeat; a socket with no pong since the previous ping is terminated'),
  STREAM_FANOUT_SLICE_MS: envInt(20, { min: 0 }).describe(
    "how long fan-out may send ticks in order in one turn of the event loop; past it the rest of that turn's ticks conflate to the latest row per pair",
  ),
  STREAM_COMPRESSION: z
    .enum(STREAM_COMPRESSIONS)
    .default('snapshots')
    .describe(
      'permessage-deflate for clients that offer it: `snapshots` compresses the snapshot only, `shared` also each tick, alone, `dedicated-<n>kb` keeps a compressor of n KB per such socket whose window reaches into the frames before; clients that do not offer it get the same frames either way (docs/stream.md#compression)',
    ),
  STREAM_DRAIN_TIMEOUT_MS: envInt(5_000, { min: 0 }).describe(
    'on shutdown, how long buffered frames may take to reach clients before every socket is closed with 1001',
  ),
})

export type StreamConfig = z.infer<typeof StreamEnv> & {
  /** the edge's switch for every per-IP budget (REST and stream) */
  RATE_LIMITS_ENABLED: boolean
}
