import { randomUUID } from 'node:crypto'
import type { HttpResponse } from 'uWebSockets.js'
import type { ErrorShape } from './error-bodies.ts'
import type { RateLimitDecision } from './rate-limits.ts'
import type { RouteMetrics } from './request-metrics.ts'

/** One request's way through the pipeline: what it was, what it has decided, and whether it is answered. */
export class RequestState {
  readonly requestId = randomUUID()
  readonly startedAt = performance.now()
  /** the client went away: nothing more is written */
  aborted = false
  /** set once the response is written: a late failure cannot answer twice */
  responded = false
  /** the request's framing cannot be trusted: close the connection after answering */
  closeConnection = false
  /** the budget's decision, once taken: its headers go on the answer, whatever it is */
  budget: RateLimitDecision | undefined = undefined

  constructor(
    /** counts the answer under the route's name */
    readonly metrics: RouteMetrics,
    /** what the server itself reads (accept-encoding, if-none-match, origin, host) and the route's own */
    readonly headers: Record<string, string>,
    /** the body shape of this path's failures */
    readonly shape: ErrorShape,
    /** a HEAD request: the GET route's status and headers, no body */
    readonly head: boolean,
    /** CORS headers for the answer */
    readonly cors: Record<string, string>,
  ) {}
}

/** Marks the request aborted when the client goes away; set only for answers that wait (and HEAD). */
export function watchAbort(res: HttpResponse, state: RequestState): void {
  res.onAborted(() => (state.aborted = true))
}
