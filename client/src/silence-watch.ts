// The clients' dead-connection check for `?heartbeat=`: the server sends a frame at least once per interval,
// so a connection silent for twice the interval is taken for dead and dropped at once.

/** The part of a socket the watch needs: the standard WebSocket's, with the `ws` package's terminate where it has one. */
export interface WatchedSocket {
  readonly readyState: number
  close(code?: number, reason?: string): void
  terminate?(): void
}

/** WebSocket's readyState once closed: the standard's constant, which Node's `ws` shares */
export const CLOSED = 3

export interface SilenceWatch {
  /** a new connection: its silence counts from now; `dropped` runs just before a silent one is dropped */
  opened(socket: WatchedSocket, dropped: () => void): void
  /** a frame arrived on the current connection */
  heard(): void
  stop(): void
}

/**
 * A watch that checks a few times per interval from the first connection until `stop`; with no interval
 * (`undefined`) it never drops anything.
 */
export function silenceWatch(heartbeatSeconds: number | undefined): SilenceWatch {
  let current: { socket: WatchedSocket; dropped: () => void } | undefined
  let lastFrameAt = 0
  const drop = ({ socket, dropped }: { socket: WatchedSocket; dropped: () => void }) => {
    current = undefined
    dropped()
    // at once: a closing handshake could take as long as the peer is gone
    if (socket.terminate) socket.terminate()
    else socket.close()
  }
  let check: ReturnType<typeof setInterval> | undefined
  const watch = (seconds: number) =>
    setInterval(
      () => {
        if (current && current.socket.readyState !== CLOSED && Date.now() - lastFrameAt > 2 * seconds * 1000) drop(current)
      },
      (seconds * 1000) / 4,
    )
  return {
    opened(socket, dropped) {
      if (heartbeatSeconds !== undefined) check ??= watch(heartbeatSeconds)
      current = { socket, dropped }
      lastFrameAt = Date.now()
    },
    heard() {
      lastFrameAt = Date.now()
    },
    stop() {
      clearInterval(check)
      check = undefined
      current = undefined
    },
  }
}
