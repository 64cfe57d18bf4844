import type { StreamConfig } from './config.ts'
import { compressOptions } from './compression.ts'

/**
 * The uWebSockets.js settings every stream path's sockets share: permessage-deflate as configured, a ceiling on
 * what a client may send, and a backpressure backstop. Frames stop at the slow-client limit, so only replies
 * can pass the backstop, and a socket that far behind is closed rather than have uWS drop frames silently.
 */
export function streamSocketSettings(config: StreamConfig, maxReceivedBytes: number) {
  return {
    compression: compressOptions(config.STREAM_COMPRESSION),
    maxPayloadLength: maxReceivedBytes,
    maxBackpressure: 2 * config.STREAM_SLOW_CLIENT_BYTES,
    closeOnBackpressureLimit: 1,
  }
}
