/**
 * Many handlers on one feed (e.g. one NATS subscription): the feed opens with the first handler and closes after
 * the last, so a process takes each message once however many of its readers want it.
 */
export function sharedFeed<Args extends unknown[]>(open: (deliver: (...args: Args) => void) => () => void) {
  const handlers = new Set<(...args: Args) => void>()
  let close: (() => void) | undefined
  const deliver = (...args: Args) => {
    for (const handler of handlers) handler(...args)
  }
  return (handler: (...args: Args) => void): (() => void) => {
    handlers.add(handler)
    close ??= open(deliver)
    return () => {
      if (!handlers.delete(handler) || handlers.size > 0) return
      close?.()
      close = undefined
    }
  }
}
