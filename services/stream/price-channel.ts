import type { StreamConfig } from './config.ts'
import type { ConnectionReplay } from './connection-replay.ts'
import type { Lane, StreamLanes } from './rate-lanes.ts'
import type { ResumeDecisions } from './resume-decisions.ts'
import type { StreamAdmission } from './stream-admission.ts'
import type { FixedRate } from './stream-rate.ts'
import type { RejectionReason } from './upgrade-gate.ts'

/**
 * What the price channel (price-stream.ts) gives each of its transports (price-sockets.ts, price-event-streams.ts):
 * the lanes the frames go out on, the one resume path, and the admission both kinds of connection share.
 */
export interface PriceChannel {
  config: StreamConfig
  lanes: StreamLanes
  /** the lane of a connection's `?rate=` */
  laneOf(connection: { rate: FixedRate | undefined }): Lane
  resumes: ResumeDecisions
  replay: ConnectionReplay
  cursorOf(position: number): string
  /** ticks are sent compressed (`STREAM_COMPRESSION`) */
  compressTicks: boolean
  admission: StreamAdmission
  /** counts and logs a refused upgrade or event stream */
  refused(reason: RejectionReason | 'admission_rate', ip: string): void
  /** the connection gauges, after any connection opened, started or closed */
  countConnections(): void
}
