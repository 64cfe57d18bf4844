import type { StreamConnection } from './connection.ts'

export interface HeartbeatOptions {
  intervalMs: number
  connections: () => Iterable<StreamConnection>
  /** called for a connection that has not answered the previous ping, before it is terminated */
  onTerminate(connection: StreamConnection): void
}

/**
 * Spec 6.4: a ping every interval; a connection that has not ponged since the previous ping is
 * terminated (closed without a close frame, as it is not reading).
 */
export function startHeartbeat(options: HeartbeatOptions): { stop(): void } {
  const timer = setInterval(() => {
    for (const connection of options.connections()) {
      const socket = connection.socket!
      if (!connection.answeredPing) {
        options.onTerminate(connection)
        socket.close()
        continue
      }
      connection.answeredPing = false
      socket.ping()
    }
  }, options.intervalMs)
  timer.unref()
  return { stop: () => clearInterval(timer) }
}
