/**
 * Heartbeats for quiet connections (`?heartbeat=<seconds>`), for any channel: a connection that asked for
 * one gets `{"type":"heartbeat","time":<ms>}` (with the latest cursor when it carries cursors) once nothing
 * has been sent to it for its interval, so its client can tell a quiet stream from a dead one.
 *
 * No timer per connection and no work per tick: one sweep every SWEEP_MS over the connections that asked.
 * Ticks published to a topic never pass through JavaScript per socket, so the channel says instead whether
 * anything went out: `activity` is a number that grows whenever the connection was sent something (for a
 * stream connection, the records of its pairs; see `PublishedTicks.changesOver`). A sweep that finds it
 * changed knows something went out since the previous sweep, and counts the connection quiet from that
 * previous sweep on, the earliest that frame may have left. So a heartbeat follows the last frame after at
 * least the interval and at most the interval plus one sweep, and a client that allows twice the interval
 * (at least 1 s) never takes a live connection for a dead one.
 */
export const SWEEP_MS = 250

export interface HeartbeatChannel<C> {
  /** grows whenever something was sent to the connection */
  activity(connection: C): number
  /** sends the connection its heartbeat frame (a channel skips a connection whose frames are being dropped) */
  send(connection: C, time: number): void
}

interface Watched {
  intervalMs: number
  activity: number
  /** nothing has been sent to it since (at the latest) this time */
  quietSince: number
}

export class IdleHeartbeats<C> {
  private readonly watched = new Map<C, Watched>()
  private readonly timer: NodeJS.Timeout
  private lastSweepAt: number

  constructor(
    private readonly channel: HeartbeatChannel<C>,
    private readonly now: () => number = Date.now,
  ) {
    this.lastSweepAt = now()
    this.timer = setInterval(() => this.sweep(), SWEEP_MS)
    this.timer.unref()
  }

  get size(): number {
    return this.watched.size
  }

  /** Starts heartbeats for a connection that has just been sent its first frames. */
  watch(connection: C, intervalMs: number): void {
    this.watched.set(connection, { intervalMs, activity: this.channel.activity(connection), quietSince: this.now() })
  }

  /** Something was sent to the connection that `activity` does not count (a reply). */
  sent(connection: C): void {
    const watched = this.watched.get(connection)
    if (watched) watched.quietSince = this.now()
  }

  unwatch(connection: C): void {
    this.watched.delete(connection)
  }

  stop(): void {
    clearInterval(this.timer)
  }

  sweep(): void {
    const now = this.now()
    for (const [connection, watched] of this.watched) {
      const activity = this.channel.activity(connection)
      if (activity !== watched.activity) {
        watched.activity = activity
        watched.quietSince = Math.max(watched.quietSince, this.lastSweepAt)
      } else if (now - watched.quietSince >= watched.intervalMs) {
        this.channel.send(connection, now)
        watched.quietSince = now
      }
    }
    this.lastSweepAt = now
  }
}

/** The heartbeat frame; with `cursor` (a connection that carries cursors) the cursor of the latest tick sent, last. */
export const heartbeatFrame = (time: number, cursor?: string): string =>
  cursor === undefined ? `{"type":"heartbeat","time":${time}}` : `{"type":"heartbeat","time":${time},"cursor":"${cursor}"}`
