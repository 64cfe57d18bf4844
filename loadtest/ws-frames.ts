// WebSocket framing for clients on raw TCP sockets: the frame reader (servers never mask), a client's
// control frame, and the upgrade request and response head. The load tester's stream clients read with it;
// so do the tests' raw clients.

import { randomBytes } from 'node:crypto'

export const OPCODE = { text: 0x1, close: 0x8, ping: 0x9, pong: 0xa } as const

/** `compressed`: the frame's RSV1 bit, set on a message compressed by permessage-deflate */
export type FrameHandler = (opcode: number, data: Buffer, start: number, end: number, compressed: boolean) => void

/** Splits a server's byte stream into frames (servers never mask); frames may span chunks. */
export class FrameReader {
  private pending: Buffer | undefined

  push(chunk: Buffer, onFrame: FrameHandler): void {
    const data = this.pending ? Buffer.concat([this.pending, chunk]) : chunk
    let offset = 0
    for (;;) {
      if (data.length - offset < 2) break
      let length = data[offset + 1]! & 0x7f
      let header = 2
      if (length === 126) {
        if (data.length - offset < 4) break
        length = data.readUInt16BE(offset + 2)
        header = 4
      } else if (length === 127) {
        if (data.length - offset < 10) break
        length = Number(data.readBigUInt64BE(offset + 2))
        header = 10
      }
      if (data.length - offset < header + length) break
      onFrame(data[offset]! & 0x0f, data, offset + header, offset + header + length, (data[offset]! & 0x40) !== 0)
      offset += header + length
    }
    // copied: the chunk's memory may be reused by the caller
    this.pending = offset < data.length ? Buffer.from(data.subarray(offset)) : undefined
  }
}

/** A control frame from a client (a pong: at most 125 bytes of payload); clients always mask. */
export function clientControlFrame(opcode: number, payload: Buffer): Buffer {
  const frame = Buffer.alloc(6 + payload.length)
  frame[0] = 0x80 | opcode
  frame[1] = 0x80 | payload.length
  const mask = randomBytes(4)
  mask.copy(frame, 2)
  for (let index = 0; index < payload.length; index++) frame[6 + index] = payload[index]! ^ mask[index % 4]!
  return frame
}

/** The bytes of a WebSocket upgrade request for `url`. */
export function upgradeRequest(url: URL, headers: Record<string, string> = {}): string {
  return [
    `GET ${url.pathname}${url.search} HTTP/1.1`,
    `Host: ${url.host}`,
    'Upgrade: websocket',
    'Connection: Upgrade',
    `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}`,
    'Sec-WebSocket-Version: 13',
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
    '',
    '',
  ].join('\r\n')
}

/** The status, headers and where the body starts, once `data` holds a whole response head. */
export function parseResponseHead(data: Buffer): { status: number; headers: Record<string, string>; bodyStart: number } | undefined {
  const end = data.indexOf('\r\n\r\n')
  if (end < 0) return undefined
  const [statusLine, ...lines] = data.subarray(0, end).toString('latin1').split('\r\n')
  const headers: Record<string, string> = {}
  for (const line of lines) {
    const colon = line.indexOf(':')
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim()
  }
  return { status: Number(statusLine!.split(' ')[1]), headers, bodyStart: end + 4 }
}
