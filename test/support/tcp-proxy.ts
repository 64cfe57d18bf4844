// A TCP proxy that can hold every chunk for a while in each direction: the cluster's slow link (the
// kernel here has no netem), a link cut without a reset (a partition, as a dropping firewall makes it) and,
// at no delay, the bridge from a namespace's address to a loopback port. Stalled, it reads nothing either way,
// so a sender's buffers fill as they do on a partitioned link, where nothing is acknowledged.
import { createConnection, createServer, type Server, type Socket } from 'node:net'

export interface TcpProxy {
  /** holds each chunk this long before passing it on (0: passes at once; Infinity: drops it); order is kept */
  setDelay(ms: number): void
  /** stops reading from every connection, open or new, until `resume` (a cut link whose senders' buffers fill) */
  stall(): void
  resume(): void
  /** connections open through it now */
  connections(): number
  close(): Promise<void>
}

export async function startTcpProxy(listen: { host: string; port: number }, target: { host: string; port: number }): Promise<TcpProxy> {
  let delayMs = 0
  let stalled = false
  const sockets = new Set<Socket>()
  const clients = new Set<Socket>()
  const server: Server = createServer((client) => {
    clients.add(client)
    client.once('close', () => clients.delete(client))
    const upstream = createConnection(target)
    for (const socket of [client, upstream]) {
      if (stalled) socket.pause()
      sockets.add(socket)
      socket.once('close', () => sockets.delete(socket))
      socket.on('error', () => {
        client.destroy()
        upstream.destroy()
      })
    }
    pipeDelayed(client, upstream, () => delayMs)
    pipeDelayed(upstream, client, () => delayMs)
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(listen.port, listen.host, resolve)
  })
  return {
    setDelay: (ms) => (delayMs = ms),
    stall() {
      stalled = true
      for (const socket of sockets) socket.pause()
    },
    resume() {
      stalled = false
      for (const socket of sockets) socket.resume()
    },
    connections: () => clients.size,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resolve())
      }),
  }
}

/** Forwards `from` to `to`, each chunk released `delay()` ms after it arrived and never before the one ahead. */
function pipeDelayed(from: Socket, to: Socket, delay: () => number): void {
  let lastRelease = 0
  from.on('data', (chunk) => {
    const ms = delay()
    if (ms === Infinity) return
    if (ms === 0 && lastRelease <= Date.now()) {
      to.write(chunk)
      return
    }
    lastRelease = Math.max(Date.now() + ms, lastRelease)
    setTimeout(() => to.writable && to.write(chunk), lastRelease - Date.now())
  })
  from.once('end', () => setTimeout(() => to.end(), Math.max(0, lastRelease - Date.now())))
}
