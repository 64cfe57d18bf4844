// nats.js closes a connection its pings found stale by first writing an empty frame and awaiting that write, to
// flush what it had queued (@nats-io/transport-node lib/node_transport.js, `_closed`). On a link that drops
// packets without a reset (a partition), a client that was publishing has a full send buffer, so that write
// never completes: the client neither reports the loss nor reconnects until the link heals or TCP gives up
// (minutes), and everything it publishes meanwhile is lost. nats.java had the same wait and added a write timeout
// (its `socketWriteTimeout`); nats.js has none.
import type { Socket } from 'node:net'
import { connect, type NatsConnection } from '@nats-io/transport-node'
import { resilientConnectionOptions } from './nats-connection-options.ts'

/** How long a connection declared stale may take to close as nats.js closes it: a write the kernel can take completes at once. */
const STALE_CLOSE_GRACE_MS = 1_000

/**
 * Connects as every process of ours does (resilientConnectionOptions), and closes at once a connection that
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
