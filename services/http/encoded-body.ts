// A response body that may go out compressed: each coding is made at most once, when first asked for,
// so a body that many requests share (a snapshot, a calendar) is compressed once per change.

import { createHash } from 'node:crypto'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'
import type { ContentCoding } from './content-coding.ts'

/** Below this size a compressed body saves less than its headers and the work cost. */
const MIN_COMPRESSED_BYTES = 1024
/** Quality 5 gives most of brotli's gain at gzip's speed; 11 takes some 200 times longer. */
const BROTLI_QUALITY = 5
const GZIP_LEVEL = 6

export type OnCompressed = (coding: Exclude<ContentCoding, 'identity'>) => void

export class EncodedBody {
  private readonly encoded: { br?: Buffer; gzip?: Buffer } = {}
  private hash: string | undefined

  constructor(readonly identity: Buffer) {}

  static of(body: Buffer | string): EncodedBody {
    return new EncodedBody(typeof body === 'string' ? Buffer.from(body) : body)
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
      bytes = coding === 'br' ? brotli(this.identity) : gzipSync(this.identity, { level: GZIP_LEVEL })
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

function brotli(body: Buffer): Buffer {
  return brotliCompressSync(body, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
    },
  })
}
