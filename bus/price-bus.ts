// The price bus: every tick goes out on its pair's subject at once, and the latest row per pair is
// kept in a key-value store so that a starting edge can seed its snapshot.
// Rows travel as the JSON bytes of a price row, encoded once by the ingestor.

export type TickHandler = (pair: string, row: Uint8Array) => void

export interface SubscribeOptions {
  /**
   * Subscribers sharing a queue group split the ticks between them: each tick reaches exactly one
   * member (as NATS queue groups do), e.g. one candle writer among several replicas.
   */
  queueGroup?: string
}

export interface PriceBus {
  /** 'nats' for the real engine, 'in-process' for the embedded stand-in */
  readonly kind: 'nats' | 'in-process'
  publishTick(pair: string, row: Uint8Array): void
  /**
   * handler runs for every tick of every pair, in publish order per pair (within a queue group: for the
   * ticks this member receives); returns an unsubscribe
   */
  subscribeTicks(handler: TickHandler, options?: SubscribeOptions): () => void
  /** the latest row per pair from the key-value store */
  readLatest(): Promise<Map<string, Uint8Array>>
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
