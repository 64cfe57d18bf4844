// A minimal WebSocket client on a raw TCP socket, for what ordinary clients hide: reading can be paused
// so that the server has to buffer, and pings go unanswered unless asked for.

import { connect, type Socket } from 'node:net'
import { clientControlFrame, FrameReader, OPCODE, parseResponseHead, upgradeRequest } from '../../loadtest/ws-frames.ts'
import { MessageLog } from './message-log.ts'

export { OPCODE }

export interface UpgradeResult {
  socket: Socket
  status: number
  headers: Record<string, string>
  /** bytes after the response head: the body of a refusal, or the first frames after a 101 */
  rest: Buffer
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

/** One frame as a test sees it; `json` for text frames sent uncompressed. */
export interface ReceivedFrame {
  opcode: number
  /** as received: a compressed frame's payload is still deflated */
  payload: Buffer
  /** RSV1: compressed by permessage-deflate */
  compressed: boolean
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
    readonly upgradeHeaders: Record<string, string>,
  ) {
    socket.on('data', (chunk: Buffer) => this.receive(chunk))
    socket.on('close', () => {
      this.closed = true
      this.frames.notify()
    })
    socket.on('error', () => {})
  }

  /** `headers` are added to the upgrade request, e.g. `Sec-WebSocket-Extensions`; the response's are kept in `upgradeHeaders` */
  static async connect(url: string, options: { answerPings?: boolean; headers?: Record<string, string> } = {}): Promise<RawStreamClient> {
    const upgrade = await rawUpgrade(url, options.headers)
    if (upgrade.status !== 101) throw new Error(`upgrade refused with ${upgrade.status}`)
    const client = new RawStreamClient(upgrade.socket, options.answerPings ?? true, upgrade.headers)
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
    this.reader.push(chunk, (opcode, data, start, end, compressed) => {
      const payload = Buffer.from(data.subarray(start, end))
      if (opcode === OPCODE.ping && this.answerPings) this.socket.write(clientControlFrame(OPCODE.pong, payload))
      const json = opcode === OPCODE.text && !compressed ? JSON.parse(payload.toString()) : undefined
      this.frames.push({ opcode, payload, compressed, ...(json === undefined ? {} : { json }) })
    })
  }
}
