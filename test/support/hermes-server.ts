// A small local stand-in for Pyth's Hermes price server, for tests: a real HTTP server on 127.0.0.1 that
// answers GET /v2/updates/price/stream with server-sent events in Hermes's format, driven by the test.
//
// Events: 'connect' after each stream request (answered or refused), 'disconnect' when an open stream closes.

import { EventEmitter } from 'node:events'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

import { waitFor } from './wait.ts'

const STREAM_PATH = '/v2/updates/price/stream'
/** Hermes's error event just before it closes a stream that has been open for 24 hours. */
const TIMEOUT_NOTICE = 'Connection timeout reached (24h)'
/** Stand-in for the signed update Hermes sends beside the parsed prices (a real one starts with "PNAU"). */
const BINARY_PLACEHOLDER = { hex: '504e4155', base64: 'UE5BVQ==' } as const
const DEFAULT_WAIT_MS = 2_000

export interface HermesPrice {
  /** integer as a string, scaled by 10^expo */
  price: string
  conf: string
  expo: number
  publish_time: number
}

/** One element of `parsed` in a Hermes price update. */
export interface HermesParsedEntry {
  /** 64 hex digits without 0x, as Hermes sends it */
  id: string
  price: HermesPrice
  ema_price: HermesPrice
  metadata: { slot: number; proof_available_time: number; prev_publish_time: number }
}

export interface EntryInput {
  /** any spelling: with or without 0x */
  feedId: string
  price: string
  conf: string
  expo: number
  publishTime: number
}

/** A parsed entry as Hermes would send it for this price (the EMA price simply repeats it). */
export function hermesEntry({ feedId, price, conf, expo, publishTime }: EntryInput): HermesParsedEntry {
  const current: HermesPrice = { price, conf, expo, publish_time: publishTime }
  return {
    id: feedId.replace(/^0x/i, '').toLowerCase(),
    price: current,
    ema_price: { ...current },
    metadata: { slot: 1, proof_available_time: publishTime, prev_publish_time: publishTime - 1 },
  }
}

export class HermesTestServer extends EventEmitter {
  /** stream requests received so far, refused ones included */
  connections = 0
  /** the ids[] values of the latest stream request, as sent */
  requestedIds: string[] = []
  /** the full query of the latest stream request */
  requestedQuery = new URLSearchParams()

  private readonly streams = new Set<ServerResponse>()
  private readonly refusals: number[] = []
  private encoding: keyof typeof BINARY_PLACEHOLDER = 'hex'

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {
    super()
  }

  static async start(): Promise<HermesTestServer> {
    const server = createServer()
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const { port } = server.address() as AddressInfo
    const hermes = new HermesTestServer(server, `http://127.0.0.1:${port}`)
    server.on('request', (request, response) => hermes.handle(request, response))
    return hermes
  }

  get openStreams(): number {
    return this.streams.size
  }

  /** Sends one price-update event with these parsed entries to every open stream. */
  push(entries: readonly HermesParsedEntry[]): void {
    const update = { binary: { encoding: this.encoding, data: [BINARY_PLACEHOLDER[this.encoding]] }, parsed: entries }
    this.send(`data: ${JSON.stringify(update)}\n\n`)
  }

  /** Sends one event whose data is this text, verbatim (for malformed payloads). */
  pushRaw(text: string): void {
    const dataLines = text.split('\n').map((line) => `data: ${line}\n`)
    this.send(`${dataLines.join('')}\n`)
  }

  /** Ends every open stream the way Hermes does after 24 hours: an error event, then the end of the response. */
  dropConnections(): void {
    for (const stream of this.streams) stream.end(`event: error\ndata: ${TIMEOUT_NOTICE}\n\n`)
  }

  /** Refuses the next stream request with this HTTP status; calls queue up. */
  failNext(status: number): void {
    this.refusals.push(status)
  }

  async waitForConnections(count: number, timeoutMs = DEFAULT_WAIT_MS): Promise<void> {
    await waitFor(() => this.connections >= count, { timeoutMs, what: `${count} Hermes stream requests` })
  }

  async waitForOpenStreams(count: number, timeoutMs = DEFAULT_WAIT_MS): Promise<void> {
    await waitFor(() => this.openStreams === count, { timeoutMs, what: `${count} open Hermes streams` })
  }

  async close(): Promise<void> {
    for (const stream of this.streams) stream.end()
    await new Promise<void>((resolve) => {
      this.server.close(() => resolve())
      this.server.closeAllConnections()
    })
  }

  private handle(request: IncomingMessage, response: ServerResponse): void {
    const url = new URL(request.url ?? '/', this.url)
    if (request.method !== 'GET' || url.pathname !== STREAM_PATH) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found')
      return
    }
    this.connections += 1
    this.requestedIds = url.searchParams.getAll('ids[]')
    this.requestedQuery = url.searchParams
    this.encoding = url.searchParams.get('encoding') === 'base64' ? 'base64' : 'hex'

    const refusal = this.refusals.shift()
    if (refusal !== undefined) {
      response.writeHead(refusal, { 'content-type': 'text/plain' }).end(`refused by test (${refusal})`)
    } else {
      response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
      response.flushHeaders()
      this.streams.add(response)
      response.on('close', () => {
        this.streams.delete(response)
        this.emit('disconnect')
      })
    }
    this.emit('connect')
  }

  private send(frame: string): void {
    for (const stream of this.streams) stream.write(frame)
  }
}
