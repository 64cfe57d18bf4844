import { snapshotFrame } from './frames.ts'
import { pairIdsOf, type PairFilter } from './pair-filter.ts'
import type { PublishedTicks } from './published-ticks.ts'

/** What the cache holds at most: some 100 all-pairs snapshots, or a thousand of a few pairs each. */
export const SNAPSHOT_CACHE_BYTES = 4 * 1024 * 1024

interface CachedFrame {
  /** the filter's record count when the frame was built */
  stamp: number
  frame: Buffer
  /** the cursor the frame carries, if it carries one */
  cursor: string | undefined
}

/**
 * Snapshot frames shared between connections: every connection with the same filter gets the same Buffer,
 * built once per change of the filter's own pairs (a tick of another pair leaves it current). A snapshot is
 * one frame (spec 6.1), so it cannot be stitched per connection from shared pieces; the cache is keyed by
 * the filter's canonical form (its pair ids in order, whatever order the client listed them in), and the
 * least recently used frames are let go past `maxBytes`. A filter no other connection holds gets a frame
 * built for it alone, as before.
 */
export class SnapshotCache {
  private readonly frames = new Map<string, CachedFrame>()
  private bytes = 0

  constructor(
    private readonly published: PublishedTicks,
    private readonly maxBytes = SNAPSHOT_CACHE_BYTES,
  ) {}

  /** `compact`: the snapshot of a connection of compact frames (with `ids`) */
  frameFor(filter: PairFilter, compact = false): Buffer {
    return this.cached(filter, undefined, compact).frame
  }

  /**
   * The frame with the cursor of the latest tick when it was built, and that cursor: still exact while the
   * filter's pairs have not changed, since every later tick is of other pairs.
   */
  withCursor(filter: PairFilter, cursorOf: (position: number) => string, compact = false): { frame: Buffer; cursor: string } {
    const { frame, cursor } = this.cached(filter, cursorOf, compact)
    return { frame, cursor: cursor! }
  }

  private cached(filter: PairFilter, cursorOf: ((position: number) => string) | undefined, compact: boolean): CachedFrame {
    const key = (cursorOf ? 'c' : '') + (compact ? 'k' : '') + (filter === null ? '*' : pairIdsOf(filter).join(','))
    const stamp = this.published.changesOver(filter)
    const cached = this.frames.get(key)
    if (cached) {
      // taken out and put back: a Map keeps insertion order, so the first key is the least recently used
      this.frames.delete(key)
      if (cached.stamp === stamp) {
        this.frames.set(key, cached)
        return cached
      }
      this.bytes -= cached.frame.length
    }
    const cursor = cursorOf?.(this.published.position)
    const frame = snapshotFrame(this.published, filter, cursor, compact)
    const built = { stamp, frame, cursor }
    this.frames.set(key, built)
    this.bytes += frame.length
    for (const [oldest, { frame: old }] of this.frames) {
      if (this.bytes <= this.maxBytes || oldest === key) break
      this.frames.delete(oldest)
      this.bytes -= old.length
    }
    return built
  }
}
