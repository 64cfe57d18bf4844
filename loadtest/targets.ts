// A target is the service's base URL in any of the forms the load test's usage names: http:// or https://, and
// for the stream also ws:// or wss:// (the same host and port). Each engine reads the form it needs from it.

/** The HTTP base of `target`: ws:// read as http://, wss:// as https://. */
export function httpBase(target: string): URL {
  const url = new URL(target)
  if (url.protocol === 'ws:') url.protocol = 'http:'
  if (url.protocol === 'wss:') url.protocol = 'https:'
  return url
}

/** The streams a load test can hold: the price stream, or the candle stream. */
export type StreamChannel = 'prices' | 'candles'

const STREAM_PATHS: Record<StreamChannel, string> = { prices: '/v1/prices/stream', candles: '/v1/candles/stream' }

/** A stream's URL on `target`, without query: http:// and ws:// as ws://, https:// and wss:// as wss://. */
export function streamUrl(target: string, channel: StreamChannel = 'prices'): string {
  const url = new URL(STREAM_PATHS[channel], target)
  url.protocol = url.protocol === 'https:' || url.protocol === 'wss:' ? 'wss:' : 'ws:'
  return url.href
}
