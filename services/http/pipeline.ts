import type { HttpResponse } from 'uWebSockets.js'
import { ServiceError } from '../../kit/errors.ts'
import type { Logger } from '../../kit/logger.ts'
import type { Metrics } from '../../kit/metrics.ts'
import type { BudgetName } from './budgets.ts'
import type { OnCompressed } from './encoded-body.ts'
import { errorResponse } from './error-response.ts'
import type { RateLimitDecision, RateLimits } from './rate-limits.ts'
import type { Reply } from './reply.ts'
import type { RequestState } from './request-state.ts'
import { writeReply } from './response-writer.ts'

/** The 429 of a spent budget; a route may describe its own (the stream's upgrades do). */
export type BudgetRefusal = (budget: BudgetName, decision: RateLimitDecision) => ServiceError

export const restBudgetRefusal: BudgetRefusal = (budget, decision) =>
  new ServiceError('rate_limited', `rate limit exceeded: retry in ${decision.resetSeconds} seconds`, {
    details: { budget, retryAfterSeconds: decision.resetSeconds },
  })

/**
 * The stages every request shares, REST and WebSocket upgrade alike: the budget with its headers, the
 * answer (counted in the route's metrics) and the error boundary. Whatever a route throws, synchronously
 * or not, becomes that request's answer in the path's error shape (a 500 and a log line when unexpected),
 * never a process exit. Request id and CORS are the RequestState's; routing is the server's.
 */
export class RequestPipeline {
  /** budgets are lifted (benches): no budget stage at all */
  readonly budgetsOff: boolean
  private readonly onCompressed: OnCompressed

  constructor(
    private readonly log: Logger,
    private readonly metrics: Metrics,
    readonly rateLimits: RateLimits,
  ) {
    this.budgetsOff = rateLimits.store === 'disabled'
    const compressions = metrics.httpCompressions
    this.onCompressed = (coding) => compressions.labels(coding).inc()
  }

  /** Takes a point of the client's budget; its headers go on whatever answer follows. Throws the refusal when spent. */
  async takeBudget(state: RequestState, budget: BudgetName, clientIp: string, refusal: BudgetRefusal): Promise<void> {
    state.budget = await this.rateLimits.check(budget, clientIp)
    if (state.budget.allowed) return
    this.metrics.rateLimited.labels(budget).inc()
    throw refusal(budget, state.budget)
  }

  /** Gives back the point `takeBudget` took; the answer's headers then show the budget as it stands. */
  async refundBudget(state: RequestState, budget: BudgetName, clientIp: string): Promise<void> {
    state.budget = (await this.rateLimits.refund(budget, clientIp)) ?? state.budget
  }

  /** Writes the reply once and counts it; `inHandler` while still in uWS's handler, where the response is corked already. */
  send(res: HttpResponse, state: RequestState, reply: Reply, inHandler: boolean): void {
    if (state.aborted || state.responded) return
    state.responded = true
    let status = reply.status
    // no closure on the synchronous path, where uWS has corked the response already
    if (inHandler) status = writeReply(res, state, reply, this.onCompressed)
    else res.cork(() => (status = writeReply(res, state, reply, this.onCompressed)))
    state.metrics.count(status, state.startedAt)
  }

  /** The error boundary: the failure's answer in the path's shape, logged when it is a fault of ours. */
  fail(res: HttpResponse, state: RequestState, error: unknown, inHandler: boolean): void {
    try {
      const { status, body, headers } = errorResponse(error, state.shape)
      const route = state.metrics.routeName
      // a 500 is a fault of ours and gets the stack; a 502 or 503 is an expected state of a dependency;
      // a replica at its own capacity (a reconnect storm's refusals) is counted by its route, not logged
      if (status === 500) this.log.error({ err: error, requestId: state.requestId, route }, 'request failed')
      else if (status > 500 && !(error instanceof ServiceError && error.code === 'at_capacity')) {
        const reason = error instanceof Error ? error.message : undefined
        this.log.info({ status, reason, requestId: state.requestId, route }, 'request answered unavailable')
      }
      const reply: Reply = { status, body: JSON.stringify(body), contentType: 'application/json', ...(headers && { headers }) }
      this.send(res, state, reply, inHandler)
    } catch (failure) {
      // the response itself could not be written (the connection went away): nothing left to answer
      this.log.warn({ err: failure, requestId: state.requestId }, 'error response not sent')
    }
  }
}
