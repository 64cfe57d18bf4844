/// <reference lib="dom" />
// Polls GET /v1/status for the board. The stream has no frame for a feed or bus outage: its sockets stay
// open and fall quiet, so a page learns of one only from the status record (spec 2.3, 4.4).
import type { StatusRecord } from '../../../schemas/price.ts'

/** Two requests per 10 s: the status budget (60 per 10 s per IP) leaves room for 30 boards behind one address. */
export const STATUS_POLL_MS = 5000

export interface StatusHandlers {
  status(record: StatusRecord): void
  /** the check failed (service unreachable, an unexpected answer); the next one follows as usual */
  failed(reason: string): void
}

export interface StatusWatch {
  /** checks now rather than at the next interval (e.g. after the stream reconnects) */
  checkNow(): void
}

export function watchStatus(handlers: StatusHandlers): StatusWatch {
  let timer: ReturnType<typeof setTimeout> | undefined
  let checking = false
  const schedule = (delayMs: number) => {
    clearTimeout(timer)
    timer = setTimeout(() => void check(), delayMs)
  }
  const check = async () => {
    if (checking) return // the check under way schedules the next one
    checking = true
    let nextInMs = STATUS_POLL_MS
    try {
      const response = await fetch('/v1/status', { cache: 'no-store' })
      if (response.status === 200) handlers.status((await response.json()) as StatusRecord)
      else {
        // a 429 says when the budget has room again
        nextInMs = Math.max(nextInMs, (Number(response.headers.get('retry-after')) || 0) * 1000)
        handlers.failed(`GET /v1/status answered ${response.status}`)
      }
    } catch (error) {
      handlers.failed(`GET /v1/status failed: ${error instanceof Error ? error.message : String(error)}`)
    } finally {
      checking = false
      schedule(nextInMs)
    }
  }
  schedule(0)
  return { checkNow: () => schedule(0) }
}
