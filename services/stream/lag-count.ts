// What a connection misses while it receives no ticks under the slow-client rule: the published seq summed over
// its filter now, less the same sum when it stopped. One count for the WebSocket and the Server-Sent Events
// deliveries, so a `gap` means the same on both.
import type { PairFilter } from './pair-filter.ts'
import type { PublishedTicks } from './published-ticks.ts'

export interface LagCounted {
  readonly filter: PairFilter
  /** the published seq summed over its filter when the count started, less what it had missed by then */
  lagBaseline: number
}

/** Starts the count for a connection that stops receiving ticks now, having missed `missed` of them already. */
export function startLagCount(connection: LagCounted, published: PublishedTicks, missed = 0): void {
  connection.lagBaseline = published.sumOver(connection.filter) - missed
}

/** The ticks missed since the count started or was last taken; the count goes on from now. */
export function takeMissed(connection: LagCounted, published: PublishedTicks): number {
  const missed = published.sumOver(connection.filter) - connection.lagBaseline
  connection.lagBaseline += missed
  return missed
}
