import { loadNativeUws } from '../http/native-uws.ts'

/**
 * permessage-deflate (RFC 7692) for the stream, by uWebSockets.js compressor. `snapshots` compresses a
 * connection's snapshot only and sends its ticks as they are; the others compress ticks too, each for every
 * socket that negotiated it (uWebSockets.js compresses a published message once per such socket). `shared`
 * compresses each message on its own with one compressor for every socket (no memory per socket); `dedicated-<n>kb` keeps
 * a compressor of n KB per socket (uWebSockets.js's naming: 3 and 4 KB hold a 512-byte window, 8 KB 1 KB, 16 KB
 * 2 KB, 32 KB 4 KB), so a tick also refers to the frames just before it. Client
 * messages are inflated by the shared decompressor (they are a few hundred bytes).
 */
const COMPRESSORS = {
  off: 'DISABLED',
  snapshots: 'SHARED_COMPRESSOR',
  shared: 'SHARED_COMPRESSOR',
  'dedicated-3kb': 'DEDICATED_COMPRESSOR_3KB',
  'dedicated-4kb': 'DEDICATED_COMPRESSOR_4KB',
  'dedicated-8kb': 'DEDICATED_COMPRESSOR_8KB',
  'dedicated-16kb': 'DEDICATED_COMPRESSOR_16KB',
  'dedicated-32kb': 'DEDICATED_COMPRESSOR_32KB',
} as const

export type StreamCompression = keyof typeof COMPRESSORS

export const STREAM_COMPRESSIONS = Object.keys(COMPRESSORS) as [StreamCompression, ...StreamCompression[]]

/** The `compression` of the stream's WebSocket behaviour for a choice. */
export function compressOptions(choice: StreamCompression): number {
  const uws = loadNativeUws()
  return choice === 'off' ? uws.DISABLED : uws[COMPRESSORS[choice]] | uws.SHARED_DECOMPRESSOR
}

/** Whether ticks go compressed to the sockets that negotiated permessage-deflate (snapshots always do). */
export const compressesTicks = (choice: StreamCompression): boolean => choice !== 'off' && choice !== 'snapshots'
