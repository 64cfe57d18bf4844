import type { Histogram } from 'hdr-histogram-js'
import { addHistograms, latencyHistogram } from './latency.ts'
import {
  addCounters,
  freshCounters,
  type LatencySource,
  type StreamCommand,
  type StreamCounters,
  type StreamReply,
  type StreamWorkerInput,
} from './stream-protocol.ts'
import { shareOf, WorkerGroup } from './worker-threads.ts'

export interface StreamClientsOptions {
  /** the stream URL without query, ws:// or wss:// */
  url: string
  /** one query string per connection */
  queries: string[]
  latency: LatencySource
  workers: number
  localAddresses?: string[]
  reconnect?: boolean
  transport?: 'ws' | 'sse'
  resume?: boolean
  /** the queries ask for a fixed rate: seq jumps are folds */
  folds?: boolean
  /** the connections hold the candle stream, of this period (StreamWorkerInput.candlePeriodMs) */
  candlePeriodMs?: number
}

export interface StreamWindow {
  counters: StreamCounters
  latency: Histogram
}

/** Stream connections held by worker threads; connection i belongs to worker i mod workers. */
export class StreamClients {
  private readonly group: WorkerGroup<StreamWorkerInput, StreamCommand, StreamReply>

  constructor(options: StreamClientsOptions) {
    const inputs = Array.from({ length: options.workers }, (_, index) => ({
      url: options.url,
      queries: options.queries.filter((_, at) => at % options.workers === index),
      latency: options.latency,
      localAddresses: options.localAddresses ?? [],
      reconnect: options.reconnect ?? false,
      transport: options.transport ?? 'ws',
      resume: options.resume ?? false,
      folds: options.folds ?? false,
      ...(options.candlePeriodMs !== undefined && { candlePeriodMs: options.candlePeriodMs }),
    }))
    this.group = new WorkerGroup(new URL('./stream-worker.ts', import.meta.url), inputs)
  }

  /** Starts opening connections until `count` in all are open or opening; does not wait for them. */
  async rampTo(count: number): Promise<void> {
    await this.group.ask((index) => ({ type: 'connect', count: shareOf(count, this.group.size, index) }))
  }

  /** Opens connections until `count` in all are open, and resolves once they are. */
  async connect(count: number): Promise<number> {
    const replies = await this.group.ask((index) => ({ type: 'connect-all', count: shareOf(count, this.group.size, index) }))
    return replies.reduce((sum, reply) => sum + (reply.type === 'done' ? reply.open : 0), 0)
  }

  /** Counters and latencies of every worker since the last reset, added up; `reset` starts a new window. */
  async report(reset: boolean): Promise<StreamWindow> {
    const replies = await this.group.ask(() => ({ type: 'report', reset }))
    const counters = freshCounters()
    const encoded: string[] = []
    for (const reply of replies) {
      if (reply.type !== 'report') continue
      encoded.push(reply.latency)
      addCounters(counters, reply.counters)
      counters.open += reply.counters.open
    }
    return { counters, latency: addHistograms(latencyHistogram(), encoded) }
  }

  /** Closes `count` open connections in all, which reopen at once (with their cursor when resuming). */
  async drop(count: number): Promise<void> {
    await this.group.ask((index) => ({ type: 'drop', count: shareOf(count, this.group.size, index) }))
  }

  /** Resolves once every connection `drop` closed is back with its first frame, or after `withinMs`. */
  async settle(withinMs: number): Promise<void> {
    await this.group.ask(() => ({ type: 'settle', withinMs }))
  }

  /** Stops reading on `count` connections in all (the same share in each worker). */
  async pause(count: number): Promise<void> {
    await this.group.ask((index) => ({ type: 'pause', count: shareOf(count, this.group.size, index) }))
  }

  async resume(): Promise<void> {
    await this.group.ask(() => ({ type: 'resume' }))
  }

  async close(): Promise<void> {
    await this.group.ask(() => ({ type: 'close' }))
    await this.group.terminate()
  }
}
