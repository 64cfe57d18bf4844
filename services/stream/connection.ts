import type { WebSocket } from 'uWebSockets.js'
import type { MessageBudget } from './message-budget.ts'
import type { Cursor } from './cursor.ts'
import type { LagCounted } from './lag-count.ts'
import type { PairFilter } from './pair-filter.ts'
import type { FixedRate } from './stream-rate.ts'

/**
 * How ticks reach a connection:
 * - `shared`: through uWebSockets.js topics, one publish per tick for every such connection (with `batch=true`
 *   and every pair, one publish per batch). Only connections far enough below the slow-client limit are here, so
 *   none can cross it unnoticed.
 * - `direct`: close to the limit; the fan-out checks the buffered amount before each tick it sends.
 * - `batched`: a connection that asked for `batch=true` and is filtered or close to the limit: each window's
 *   frames (real time: the ticks sent together, up to 16 KiB) are joined into one, sent to it alone at its end
 *   when it is within the limit (window-batches.ts).
 * - `lagging`: above the limit; ticks are dropped and counted from the per-asset seq, until it drains.
 */
export type DeliveryMode = 'shared' | 'direct' | 'batched' | 'lagging'

/** The user data of one stream socket; while lagging, its missed ticks are counted (lag-count.ts). */
export interface StreamConnection extends LagCounted {
  readonly requestId: string
  readonly ip: string
  /** what the per-IP connection ceiling counts by: the IPv4 address or the IPv6 prefix */
  readonly budgetKey: string
  filter: PairFilter
  /** its snapshot, tick and gap frames carry their cursor (`?cursor=true`, or a resume) */
  readonly withCursor: boolean
  /** the cursor it asked to resume after (`?from=`) */
  readonly resumeAfter: Cursor | undefined
  /** its ticks are compact frames (`?format=compact`) */
  readonly compact: boolean
  /** its resume sends each pair's latest tick only (`?replay=latest`) */
  readonly foldReplay: boolean
  /** `?heartbeat=`: a heartbeat frame after this long with nothing sent */
  readonly heartbeatMs: number | undefined
  /** `?rate=` when not real time */
  readonly rate: FixedRate | undefined
  /** `?batch=true`: each window of its rate (real time: the ticks sent together) comes as one `batch` frame */
  readonly batched: boolean
  mode: DeliveryMode
  /** while lagging, compact: it holds the static parts changed up to this change number (CompactTicks.changes) */
  staticsAfter: number
  /** cleared by each ping, set by the pong that answers it */
  answeredPing: boolean
  readonly messages: MessageBudget
  /** set when the socket opens; undefined once it has closed */
  socket: WebSocket<StreamConnection> | undefined
}
