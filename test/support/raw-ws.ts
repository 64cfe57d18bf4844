// A minimal WebSocket client on a raw TCP socket, for what ordinary clients hide: reading can be paused
// so that the server has to buffer, and pings go unanswered unless asked for. The frame reader is also
// the lean parser of the stream bench's load client.

import { randomBytes } from 'node:crypto'
import { connect, type Socket } from 'node:net'
import { MessageLog } from './message-log.ts'

export const OPCODE = { text: 0x1, close: 0x8, ping: 0x9, pong: 0xa } as const

export type FrameHandler = (opcode: number, data: Buffer, start: number, end: number) => void

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
      onFrame(data[offset]! & 0x0f, data, offset + header, offset + header + length)
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

export interface UpgradeResult {
  socket: Socket
  status: number
  headers: Record<string, string>
  /** bytes after the response head: the body of a refusal, or the first frames after a 101 */
  rest: Buffer
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

/** Sends a WebSocket upgrade request on a new TCP connection and reads the response head. */
export function rawUpgrade(url: string, headers: Record<string, string> = {}): Promise<UpgradeResult> {
  const target = new URL(url)
  return new Promise((resolve, reject) => {
    const socket = connect(Number(target.port), target.hostname)
    let received = Buffer.alloc(0)
    const onData = (chunk: Buffer) => {
      received = Buffer.concat([received, chunk])
      const head = parseResponseHead(received)
      if (!head) return
      socket.off('data', onData)
      socket.off('error', reject)
      resolve({ socket, status: head.status, headers: head.headers, rest: received.subarray(head.bodyStart) })
    }
    socket.on('data', onData)
    socket.once('error', reject)
    socket.write(upgradeRequest(target, headers))
  })
}

/** One frame as a test sees it; `json` for text frames. */
export interface ReceivedFrame {
  opcode: number
  payload: Buffer
  json?: any
}

/**
 * A stream connection whose reading can be paused. It records every frame; it answers pings only when
 * `answerPings` is set.
 */
export class RawStreamClient {
  readonly frames = new MessageLog<ReceivedFrame>()
  closed = false
  private readonly reader = new FrameReader()

  private constructor(
    readonly socket: Socket,
    private readonly answerPings: boolean,
  ) {
    socket.on('data', (chunk: Buffer) => this.receive(chunk))
    socket.on('close', () => {
      this.closed = true
      this.frames.notify()
    })
    socket.on('error', () => {})
  }

  static async connect(url: string, options: { answerPings?: boolean } = {}): Promise<RawStreamClient> {
    const upgrade = await rawUpgrade(url)
    if (upgrade.status !== 101) throw new Error(`upgrade refused with ${upgrade.status}`)
    const client = new RawStreamClient(upgrade.socket, options.answerPings ?? true)
    if (upgrade.rest.length > 0) client.receive(upgrade.rest)
    return client
  }

  /** Stops reading from the socket, so the server's buffer for it grows. */
  pause(): void {
    this.socket.pause()
  }

  resume(): void {
    this.socket.resume()
  }

  /** The JSON text frames received so far. */
  get messages(): any[] {
    return this.frames.items.filter((frame) => frame.json !== undefined).map((frame) => frame.json)
  }

  waitForClose(timeoutMs?: number): Promise<true> {
    return this.frames.until(() => this.closed || undefined, 'the socket to close', timeoutMs)
  }

  destroy(): void {
    this.socket.destroy()
  }

  private receive(chunk: Buffer): void {
    this.reader.push(chunk, (opcode, data, start, end) => {
      const payload = Buffer.from(data.subarray(start, end))
      if (opcode === OPCODE.ping && this.answerPings) this.socket.write(clientControlFrame(OPCODE.pong, payload))
      this.frames.push(opcode === OPCODE.text ? { opcode, payload, json: JSON.parse(payload.toString()) } : { opcode, payload })
    })
  }
}
