// A response body that may go out compressed: each coding is made at most once, when first asked for,
// so a body that many requests share (a snapshot, a calendar) is compressed once per change.

import { createHash } from 'node:crypto'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'
import type { ContentCoding } from './content-coding.ts'

/** Below this size a compressed body saves less than its headers and the work cost. */
const MIN_COMPRESSED_BYTES = 1024
/**
 * `small` for answers that change rarely (brotli 5 gives most of brotli's gain; 11 takes some 100 times
 * longer), `fast` for one that changes with every tick, where a snapshot is compressed up to a few
 * hundred times a second: a few per cent larger for a fraction of the time.
 */
const LEVELS = { small: { gzip: 6, brotli: 5 }, fast: { gzip: 1, brotli: 1 } } as const
export type CompressionEffort = keyof typeof LEVELS

export type OnCompressed = (coding: Exclude<ContentCoding, 'identity'>) => void

export class EncodedBody {
  private readonly encoded: { br?: Buffer; gzip?: Buffer } = {}
  private hash: string | undefined

  constructor(
    readonly identity: Buffer,
    private readonly effort: CompressionEffort = 'small',
  ) {}

  static of(body: Buffer | string, effort?: CompressionEffort): EncodedBody {
    return new EncodedBody(typeof body === 'string' ? Buffer.from(body) : body, effort)
  }

  /** The coding this body goes out in when `preferred` is acceptable: identity for small bodies. */
  codingFor(preferred: ContentCoding): ContentCoding {
    return this.identity.length < MIN_COMPRESSED_BYTES ? 'identity' : preferred
  }

  /** The bytes in `coding`, compressing on the first request for it (`onCompressed` is told). */
  bytes(coding: ContentCoding, onCompressed?: OnCompressed): Buffer {
    if (coding === 'identity') return this.identity
    let bytes = this.encoded[coding]
    if (bytes === undefined) {
      const levels = LEVELS[this.effort]
      bytes = coding === 'br' ? brotli(this.identity, levels.brotli) : gzipSync(this.identity, { level: levels.gzip })
      this.encoded[coding] = bytes
      onCompressed?.(coding)
    }
    return bytes
  }

  /**
   * A strong ETag per representation (RFC 9110 8.8.3): the identity bytes' digest, with the coding
   * appended for a compressed one, whose bytes differ.
   */
  etag(coding: ContentCoding): string {
    this.hash ??= createHash('sha1').update(this.identity).digest('base64url')
    return coding === 'identity' ? `"${this.hash}"` : `"${this.hash}-${coding}"`
  }
}

function brotli(body: Buffer, quality: number): Buffer {
  return brotliCompressSync(body, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: quality,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
    },
  })
}
