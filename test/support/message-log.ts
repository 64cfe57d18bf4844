import { EVENT_DEADLINE_MS, withDeadline } from './wait.ts'

/** Everything a test client has received, in order, with waits on what is still to come. */
export class MessageLog<T> {
  readonly items: T[] = []
  private readonly waiters = new Set<() => void>()

  push(item: T): void {
    this.items.push(item)
    this.notify()
  }

  /** Wakes waiters whose condition does not depend on a new item (a close, say). */
  notify(): void {
    for (const waiter of [...this.waiters]) waiter()
  }

  /** Resolves with the first item at index `from` or later that matches. */
  waitFor(matches: (item: T) => boolean, what: string, options: { from?: number; timeoutMs?: number } = {}): Promise<T> {
    let next = options.from ?? 0
    return this.until(
      () => {
        for (; next < this.items.length; next++) if (matches(this.items[next]!)) return this.items[next]
        return undefined
      },
      what,
      options.timeoutMs,
    )
  }

  /** Resolves once `condition` holds, checked on every new item or notification. */
  until<R>(condition: () => R | undefined, what: string, timeoutMs = EVENT_DEADLINE_MS): Promise<R> {
    return withDeadline(
      new Promise<R>((resolve) => {
        const check = () => {
          const value = condition()
          if (value === undefined) return
          this.waiters.delete(check)
          resolve(value)
        }
        this.waiters.add(check)
        check()
      }),
      timeoutMs,
      what,
    )
  }
}
