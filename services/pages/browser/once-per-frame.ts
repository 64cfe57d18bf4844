// Batches what changed between two frames of the page. The stream delivers about a hundred ticks a second;
// writing each into the table at once costs a style and layout pass of the whole table per tick, and a page
// whose messages queue behind that work also reads its socket late (Chromium stops reading a WebSocket the
// page has not caught up with), so every frame behind it, a close frame included, arrives late.

/** Runs a callback before the next frame is drawn (requestAnimationFrame in a page). */
export type RequestFrame = (callback: () => void) => unknown

/**
 * Returns `mark(item)`: the items marked before a frame are handed to `paint` once, together, before that
 * frame is drawn, however many times each was marked. A hidden page draws no frames and so paints nothing
 * until it is shown again; what it holds meanwhile is one entry per item.
 */
export function oncePerFrame<T>(paint: (items: ReadonlySet<T>) => void, requestFrame: RequestFrame): (item: T) => void {
  let marked = new Set<T>()
  const flush = () => {
    const items = marked
    marked = new Set()
    paint(items)
  }
  return (item) => {
    if (marked.size === 0) requestFrame(flush)
    marked.add(item)
  }
}
