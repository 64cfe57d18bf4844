import type { Metrics } from '../../kit/metrics.ts'
import type { Cursor } from './cursor.ts'
import type { PublishedTicks } from './published-ticks.ts'
import { CURSOR_AHEAD_WAIT_MS, resumeOutcome } from './resume.ts'
import type { TickHistory } from './tick-history.ts'

/** How a decided resume begins: with the replay after its cursor, or with `recovered: false` and a snapshot. */
export type BeginResume = (outcome: 'recover' | 'refuse') => void

/** How a resume was decided (`venue_stream_resumes_total`'s label). */
type Decided = 'recovered' | 'outside_window' | 'other_epoch' | 'edge_behind'

interface Waiting {
  since: number
  position: number
  sent: PublishedTicks
  begin: BeginResume
}

export interface ResumeDecisionsOptions {
  /** the tick log's epoch, which cursors of this deployment carry */
  epoch(): string
  /** the ticks retained for replays */
  history: TickHistory
  metrics: Metrics
}

/**
 * Decides the resumes of the price stream, for WebSocket and Server-Sent Events alike. A cursor this edge can
 * answer is decided at once: recovered when every tick after it is retained, refused when it is older or of
 * another epoch. A cursor another edge had reached and this one has not yet waits, its connection sending and
 * answering nothing, until this edge's lane has sent that far (recovered) or CURSOR_AHEAD_WAIT_MS has passed
 * (refused as `edge_behind`). Each decision is counted by how it was made.
 */
export class ResumeDecisions {
  /** the resumes waiting for their cursor, by connection */
  private readonly waiting = new Map<object, Waiting>()

  constructor(private readonly options: ResumeDecisionsOptions) {}

  /** Decides the resume after `after` of `connection`, whose lane has sent `sent`, now or once it can be. */
  decide(connection: object, after: Cursor, sent: PublishedTicks, begin: BeginResume): void {
    const outcome = resumeOutcome(after, this.options.epoch(), sent, this.options.history)
    if (outcome === 'recover') return this.begun(begin, 'recovered')
    if (outcome === 'refuse') return this.begun(begin, after.epoch === this.options.epoch() ? 'outside_window' : 'other_epoch')
    this.waiting.set(connection, { since: Date.now(), position: after.position, sent, begin })
    setTimeout(() => this.progressed(), CURSOR_AHEAD_WAIT_MS + 1).unref()
  }

  /** A lane has sent more (a tick, a window): the waiting resumes it has reached, or that waited long enough, begin. */
  progressed(): void {
    if (this.waiting.size === 0) return
    const now = Date.now()
    for (const [connection, waiting] of this.waiting) {
      const reached = waiting.sent.position >= waiting.position
      if (!reached && now - waiting.since < CURSOR_AHEAD_WAIT_MS) continue
      this.waiting.delete(connection)
      this.begun(waiting.begin, reached ? 'recovered' : 'edge_behind')
    }
  }

  /** Whether the connection's resume is waiting for its cursor. */
  isWaiting(connection: object): boolean {
    return this.waiting.has(connection)
  }

  /** The connection went away: its resume is not begun. */
  cancel(connection: object): void {
    this.waiting.delete(connection)
  }

  /** The connections whose resume is waiting (shutdown closes them). */
  waitingConnections(): Iterable<object> {
    return this.waiting.keys()
  }

  private begun(begin: BeginResume, how: Decided): void {
    this.options.metrics.streamResumes.labels(how).inc()
    begin(how === 'recovered' ? 'recover' : 'refuse')
  }
}
