import type { ConnectionOptions } from '@nats-io/transport-node'

const PING_INTERVAL_MS = 2_000
/**
 * How long one attempt to reach a server may take (TCP connect and the server's first answer). After a loss the
 * client may dial the server it has just lost first; a partitioned server never answers, and the client's default
 * (20 s) kept an edge off the bus that long before it tried the next server.
 */
const DIAL_TIMEOUT_MS = 4_000

/** How every process of ours (and the price reader library) holds its NATS connection: across a cluster's failures. */
export function resilientConnectionOptions(servers: string, name: string): ConnectionOptions {
  return {
    servers: servers.split(','),
    name,
    maxReconnectAttempts: -1,
    reconnectTimeWait: 500,
    // A server cut off by a partition sends nothing, not even a reset: only unanswered pings reveal it.
    // The client's default (a ping every 2 minutes, 2 missed) left an edge on a partitioned node for
    // minutes, believing itself connected; this finds out within about 6 s and moves to another server.
    pingInterval: PING_INTERVAL_MS,
    maxPingOut: 2,
    timeout: DIAL_TIMEOUT_MS,
  }
}
