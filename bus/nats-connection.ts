// How every process of ours (and the price reader library) holds its NATS connection: across a cluster's failures.
import type { Socket } from 'node:net'
import { connect, type ConnectionOptions, type NatsConnection } from '@nats-io/transport-node'

const PING_INTERVAL_MS = 2_000
/**
 * How long one attempt to reach a server may take (TCP connect and the server's first answer). After a loss the
 * client may dial the server it has just lost first; a partitioned server never answers, and the client's default
 * (20 s) kept an edge off the bus that long before it tried the next server.
 */
const DIAL_TIMEOUT_MS = 4_000

/** The options of every connection: a cut-off server found within about 6 s, a dial that gives up after 4 s. */
function resilientConnectionOptions(servers: string, name: string): ConnectionOptions {
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

// nats.js closes a connection its pings found stale by first writing an empty frame and awaiting that write, to
// flush what it had queued (@nats-io/transport-node lib/node_transport.js, `_closed`). On a link that drops
// packets without a reset (a partition), a client that was publishing has a full send buffer, so that write
// never completes: the client neither reports the loss nor reconnects until the link heals or TCP gives up
// (minutes), and everything it publishes meanwhile is lost. nats.java had the same wait and added a write timeout
// (its `socketWriteTimeout`); nats.js has none.

/** How long a connection declared stale may take to close as nats.js closes it: a write the kernel can take completes at once. */
const STALE_CLOSE_GRACE_MS = 1_000

/**
 * Connects as every process of ours does (the options above), and closes at once a connection that
 * nats.js declared stale and had not closed a second later, by destroying its socket: nats.js then takes the
 * connection as lost and reconnects. `onForcedClose` is told each time.
 */
export async function connectResiliently(servers: string, name: string, onForcedClose?: () => void): Promise<NatsConnection> {
  const nc = await connect(resilientConnectionOptions(servers, name))
  void (async () => {
    let timer: NodeJS.Timeout | undefined
    for await (const status of nc.status()) {
      if (status.type === 'disconnect') clearTimeout(timer)
      if (status.type !== 'staleConnection') continue
      timer = setTimeout(() => {
        const socket = socketOf(nc)
        if (!socket || socket.destroyed) return
        onForcedClose?.()
        socket.destroy()
      }, STALE_CLOSE_GRACE_MS)
      timer.unref()
    }
  })()
  return nc
}

/**
 * The connection's socket, which nats.js keeps in its protocol handler's transport (NatsConnectionImpl.protocol,
 * ProtocolHandler.transport, NodeTransport.socket); undefined should a later nats.js keep it otherwise.
 */
function socketOf(nc: NatsConnection): Socket | undefined {
  const socket = (nc as unknown as { protocol?: { transport?: { socket?: unknown } } }).protocol?.transport?.socket
  return socket && typeof (socket as Socket).destroy === 'function' ? (socket as Socket) : undefined
}
