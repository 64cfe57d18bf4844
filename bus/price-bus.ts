// The price bus: every tick goes out on its pair's subject at once, and the latest row per pair is
// kept in a key-value store so that a starting edge can seed its snapshot.
// Rows travel as the JSON bytes of a price row, encoded once by the ingestor.

/** `seq`: the tick's per-pair seq, as its publisher numbered it (undefined from a publisher that does not number) */
export type TickHandler = (pair: string, row: Uint8Array, seq: number | undefined) => void

/** A pair's latest row in the key-value store, with the per-pair seq of the tick that wrote it (when numbered). */
export interface LatestRow {
  row: Uint8Array
  seq: number | undefined
}

export interface SubscribeOptions {
  /**
   * Subscribers sharing a queue group split the ticks between them: each tick reaches exactly one
   * member (as NATS queue groups do), e.g. one candle writer among several replicas.
   */
  queueGroup?: string
}

/** How long ticks are kept for resuming readers when the process is not told (STREAM_RESUME_WINDOW_SECONDS). */
export const DEFAULT_RESUME_WINDOW_SECONDS = 300

/** A tick with the numbers the deployment gives it once, where it enters the bus. */
export interface NumberedTick {
  pair: string
  row: Uint8Array
  /** per pair: counts every tick of the pair published in this epoch */
  seq: number
  /** deployment-wide: grows with every tick published in this epoch, in publish order */
  position: number
}

/**
 * The deployment's numbered ticks: every reader sees the same `seq` and `position` for the same tick, and
 * positions of another epoch (a numbering lost and started again) are not comparable.
 */
export interface TickLog {
  /** names the numbering: letters and digits */
  readonly epoch: string
  /** how long ticks are kept for resuming readers (with NATS: the tick stream's own max age) */
  readonly windowSeconds: number
  /**
   * Every tick still retained (with NATS: the tick stream's window; in process: none), or only those after
   * position `after` (a cursor's, of this epoch), then every new one, in position order. `ready` resolves
   * once the retained ticks have been handed over.
   */
  follow(handler: (tick: NumberedTick) => void, options?: { after?: number }): { ready: Promise<void>; stop(): void }
  /** each pair's latest `seq` (with NATS: as the latest-row bucket holds it), for pairs with no retained tick */
  latestSeqs(): Promise<Map<string, number>>
}

export interface PriceBus {
  /** 'nats' for the real engine, 'in-process' for the embedded stand-in */
  readonly kind: 'nats' | 'in-process'
  publishTick(pair: string, row: Uint8Array): void
  /** the numbered ticks, for readers that resume from a position (the stream) */
  readonly tickLog: TickLog
  /**
   * handler runs for every tick of every pair, in publish order per pair (within a queue group: for the
   * ticks this member receives); returns an unsubscribe
   */
  subscribeTicks(handler: TickHandler, options?: SubscribeOptions): () => void
  /** the latest row of every listed pair that has one, from the key-value store */
  readLatest(): Promise<Map<string, LatestRow>>
  /**
   * resolves once every row published so far has reached the key-value store and the server has
   * processed everything sent before the call, subscriptions included (so ticks published afterwards
   * reach them)
   */
  flush(): Promise<void>
  isConnected(): boolean
  /** called on every change of reachability; returns an unsubscribe */
  onConnectionChange(listener: (connected: boolean) => void): () => void
  close(): Promise<void>
}
