import type { HttpResponse } from 'uWebSockets.js'
import { ServiceError } from '../../kit/errors.ts'
import type { RequestState } from './request-state.ts'

/**
 * Reads the whole body, refusing with 413 as soon as it is known to exceed the limit. uWS hands the body
 * only to a reader attached before its handler returns, so this starts at once, before anything is awaited.
 */
export function readBody(res: HttpResponse, state: RequestState, limitBytes: number): Promise<Buffer> {
  const tooLarge = () =>
    new ServiceError('payload_too_large', `request body is larger than ${limitBytes} bytes`, { details: { limitBytes } })
  const declared = Number(state.headers['content-length'] ?? 0)
  if (declared > limitBytes) return Promise.reject(tooLarge())
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let received = 0
    let refused = false
    res.onData((chunk, isLast) => {
      if (refused || state.aborted) return
      received += chunk.byteLength
      if (received > limitBytes) {
        refused = true
        return reject(tooLarge())
      }
      // uWS reuses the chunk's memory after this callback returns: copy it
      chunks.push(Buffer.from(chunk.slice(0)))
      if (isLast) resolve(Buffer.concat(chunks))
    })
  })
}
