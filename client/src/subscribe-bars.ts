// Live bars for a chart from /v1/candles/stream, in the shape of a TradingView datafeed's subscribeBars:
// load the history once (GET /v1/udf/history), then apply each bar this hands over to the last one.

import { platformSocket, type OpenSocket, type Refusal, type StreamSocket } from './price-stream-client.ts'
import { reconnectDelayMs } from './reconnect-delay.ts'
import { silenceWatch } from './silence-watch.ts'
import type { CandleServerFrame } from './stream-frames.ts'

/** A bar as TradingView's datafeed takes it: `time` in milliseconds. */
export interface Bar {
  time: number
  open: number
  high: number
  low: number
  close: number
}

export interface SubscribeBarsOptions {
  /** the service's base URL, e.g. https://api.example.com; the stream is on the same host (ws or wss) */
  baseUrl: string
  /** opens the socket: the platform's WebSocket by default; on Node 20, `nodeSocket()` from ./node.ts */
  openSocket?: OpenSocket
  /** reconnect delays, as the price-stream client's (default 500 ms doubling up to 30 s, full jitter) */
  backoff?: { initialMs?: number; maxMs?: number }
  random?: () => number
  /**
   * Ask for a heartbeat after this many seconds (1 to 60) without a frame (`?heartbeat=`), and take a connection
   * silent for twice that for dead: it reconnects, and `onResetCacheNeeded` is called. Off by default.
   */
  heartbeatSeconds?: number
  /** a refused upgrade that retrying cannot fix (400: an unknown pair or resolution; 403) */
  onError?(error: Error): void
}

const REFUSALS_WORTH_RETRYING = new Set([429, 503])

/**
 * Calls `onTick` with the pair's bar at `resolution` (as POST /v1/ohlc and the UDF routes take it) whenever
 * it changes: the forming bar at most once a second, and the final one when its period ends; never with a bar
 * older than the last it handed over. `onResetCacheNeeded` is called when bars may have been missed (a `gap`,
 * or a reconnection: periods may have ended meanwhile): reload the history, as TradingView does. Returns the
 * unsubscribe.
 */
export function subscribeBars(
  options: SubscribeBarsOptions,
  pair: string,
  resolution: string,
  onTick: (bar: Bar) => void,
  onResetCacheNeeded: () => void = () => {},
): () => void {
  let socket: StreamSocket | undefined
  let attempt = 0
  let connections = 0
  let lastTime = -Infinity
  let stopped = false
  let timer: ReturnType<typeof setTimeout> | undefined
  const seconds = options.heartbeatSeconds
  const silence = silenceWatch(seconds)

  const hand = ({ time, open, high, low, close }: Bar) => {
    if (time < lastTime) return
    lastTime = time
    onTick({ time, open, high, low, close })
  }
  const receive = (frame: CandleServerFrame) => {
    if (frame.type === 'snapshot') {
      attempt = 0
      if (++connections > 1) onResetCacheNeeded()
      for (const candle of frame.data) hand(candle)
    } else if (frame.type === 'candle') hand(frame.data)
    else if (frame.type === 'gap') onResetCacheNeeded()
  }
  const connect = () => {
    if (stopped) return
    const url = new URL('/v1/candles/stream', options.baseUrl.replace(/^http/, 'ws'))
    url.searchParams.set('pairs', pair)
    url.searchParams.set('resolution', resolution)
    if (seconds !== undefined) url.searchParams.set('heartbeat', String(seconds))
    let refusal: Refusal | undefined
    const opened = (options.openSocket ?? platformSocket)(url, (refused) => (refusal = refused))
    socket = opened
    silence.opened(opened, () => closed())
    opened.addEventListener('message', ({ data }) => {
      if (socket !== opened) return
      silence.heard()
      receive(JSON.parse(String(data)) as CandleServerFrame)
    })
    opened.addEventListener('error', () => {}) // every failure also closes the socket
    opened.addEventListener('close', () => closed())
    const closed = () => {
      if (socket !== opened) return
      socket = undefined
      if (refusal && !REFUSALS_WORTH_RETRYING.has(refusal.status)) {
        stopped = true
        options.onError?.(new Error(`the candle stream refused the connection with ${refusal.status}`))
      }
      if (stopped) return
      const delay = reconnectDelayMs({
        attempt: attempt++,
        initialMs: options.backoff?.initialMs ?? 500,
        maxMs: options.backoff?.maxMs ?? 30_000,
        retryAfterSeconds: refusal?.retryAfterSeconds,
        random: options.random ?? Math.random,
      })
      timer = setTimeout(connect, delay)
    }
  }
  connect()

  return () => {
    stopped = true
    silence.stop()
    clearTimeout(timer)
    socket?.close(1000, 'unsubscribed')
    socket = undefined
  }
}
