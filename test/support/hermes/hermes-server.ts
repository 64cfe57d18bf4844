// A local stand-in for Pyth's Hermes price server, for tests: a real HTTP server on 127.0.0.1 that speaks
// Hermes's v2 API the way the real one does, refusals and limits included. README.md beside this file
// names, per behaviour, the source it was built from.
//
// Events: 'connect' after each stream request (answered or refused), 'disconnect' when an open stream closes.

import { EventEmitter } from 'node:events'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

import { FEED_IDS } from '../../../services/ingestor/feed-ids.ts'
import { EVENT_DEADLINE_MS, waitFor } from '../wait.ts'
import { hermesAuthRefusal } from './hermes-auth.ts'
import { HermesRateLimit, PUBLIC_RATE_LIMIT, type RateLimitOptions } from './hermes-rate-limit.ts'

const STREAM_PATH = '/v2/updates/price/stream'
const PRICE_FEEDS_PATH = '/v2/price_feeds'
const TIMEOUT_NOTICE = 'Connection timeout reached (24h)'
const SLOW_CONSUMER_NOTICE = 'Slow consumer: disconnected'
const MESSAGE_NOT_FOUND = 'Error receiving update: Message not found'
const DAY_MS = 24 * 60 * 60 * 1000
const PRICE_ID = /^(0x)?[0-9a-fA-F]{64}$/
const TEXT = 'text/plain; charset=utf-8'
/** Stand-in for the signed accumulator update beside the parsed prices (a real one starts with "PNAU"). */
const BINARY_PLACEHOLDER = { hex: '504e4155', base64: 'UE5BVQ==' } as const

export interface HermesPrice {
  /** integer as a string, scaled by 10^expo */
  price: string
  conf: string
  expo: number
  publish_time: number
}

/** Hermes serialises absent values as null here. */
export interface HermesMetadata {
  slot: number | null
  proof_available_time: number | null
  prev_publish_time: number | null
}

/** One element of `parsed` in a Hermes price update. */
export interface HermesParsedEntry {
  /** 64 hex digits without 0x, as Hermes sends it */
  id: string
  price: HermesPrice
  ema_price: HermesPrice
  metadata: HermesMetadata
}

export interface EntryInput {
  /** any spelling: with or without 0x */
  feedId: string
  price: string
  conf: string
  expo: number
  publishTime: number
  metadata?: Partial<HermesMetadata>
}

/** A feed Hermes knows: listed by /v2/price_feeds and streamable. */
export interface HermesFeed {
  /** any spelling */
  id: string
  /** Pyth's symbol, e.g. "Crypto.BTC/USD" */
  symbol: string
}

export interface HermesServerOptions {
  /** the feeds Hermes knows; default: every Pyth feed the venue maps a pair to */
  feeds?: readonly HermesFeed[]
  /** when set, every request must carry this key (Bearer header or ACCESS_TOKEN query parameter) */
  apiKey?: string
  /** per-IP request limit; default the public endpoint's (30 per 10 s, then 429 for 60 s); false: none */
  rateLimit?: RateLimitOptions | false
  /** quiet time on a stream before a keep-alive comment; Hermes: 15 s */
  keepAliveMs?: number
  /** one price event per slot on every stream, every this many ms (Pythnet: about 400); 0: only on slot() */
  slotMs?: number
  /** a stream ends at its first slot after being open this long; Hermes: 24 h */
  maxConnectionMs?: number
}

/** A parsed entry as Hermes would send it for this price (the EMA price simply repeats it). */
export function hermesEntry({ feedId, price, conf, expo, publishTime, metadata }: EntryInput): HermesParsedEntry {
  const current: HermesPrice = { price, conf, expo, publish_time: publishTime }
  return {
    id: bareId(feedId),
    price: current,
    ema_price: { ...current },
    metadata: { slot: 1, proof_available_time: publishTime, prev_publish_time: publishTime - 1, ...metadata },
  }
}

interface Subscription {
  response: ServerResponse
  /** valid ids asked for, bare */
  ids: string[]
  encoding: keyof typeof BINARY_PLACEHOLDER
  parsed: boolean
  benchmarksOnly: boolean
  openedAt: number
  keepAlive: NodeJS.Timeout | undefined
}

export class HermesTestServer extends EventEmitter {
  /** stream requests received so far, refused ones included */
  connections = 0
  /** requests per path, refused ones included */
  readonly requests = new Map<string, number>()
  /** the ids[] values of the latest stream request, as sent */
  requestedIds: string[] = []
  /** the full query of the latest stream request */
  requestedQuery = new URLSearchParams()
  /** the Authorization header of the latest request */
  lastAuthorization: string | undefined
  /** keep-alive comments sent, over all streams */
  keepAlivesSent = 0
  /** the current Pythnet slot */
  currentSlot = 0

  private readonly feeds = new Map<string, { symbol: string; entry?: HermesParsedEntry }>()
  private readonly streams = new Set<Subscription>()
  private readonly refusals: Array<{ path: string; status: number }> = []
  private readonly rateLimit: HermesRateLimit | undefined
  private readonly keepAliveMs: number
  private readonly maxConnectionMs: number
  private readonly slotTimer: NodeJS.Timeout | undefined

  private constructor(
    private readonly server: Server,
    readonly url: string,
    private readonly options: HermesServerOptions,
  ) {
    super()
    const feeds = options.feeds ?? venueFeeds()
    for (const feed of feeds) this.feeds.set(bareId(feed.id), { symbol: feed.symbol })
    this.rateLimit = options.rateLimit === false ? undefined : new HermesRateLimit(options.rateLimit ?? PUBLIC_RATE_LIMIT)
    this.keepAliveMs = options.keepAliveMs ?? 15_000
    this.maxConnectionMs = options.maxConnectionMs ?? DAY_MS
    const slotMs = options.slotMs ?? 400
    if (slotMs > 0) this.slotTimer = setInterval(() => this.slot(), slotMs)
  }

  static async start(options: HermesServerOptions = {}): Promise<HermesTestServer> {
    const server = createServer()
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const { port } = server.address() as AddressInfo
    const hermes = new HermesTestServer(server, `http://127.0.0.1:${port}`, options)
    server.on('request', (request, response) => hermes.handle(request, response))
    return hermes
  }

  get openStreams(): number {
    return this.streams.size
  }

  /** The feed's newest price; the next slots carry it (and keep carrying it until it changes). */
  setPrice(input: EntryInput): void {
    const id = bareId(input.feedId)
    const feed = this.feeds.get(id)
    if (!feed) throw new Error(`feed ${id} is not one Hermes knows`)
    const previous = feed.entry?.price.publish_time ?? null
    const nowSeconds = Math.floor(Date.now() / 1000)
    feed.entry = hermesEntry({
      ...input,
      metadata: { slot: this.currentSlot, proof_available_time: nowSeconds, prev_publish_time: previous, ...input.metadata },
    })
  }

  /** Pyth retires the feed: it leaves the list and the streams; a new request naming it gets 404. */
  removeFeed(feedId: string): void {
    this.feeds.delete(bareId(feedId))
  }

  /**
   * One Pythnet slot: every open stream gets one event with every id it subscribed to, as it stands now,
   * changed or not. A subscribed feed without a price turns the whole event into an error event.
   */
  slot(): void {
    this.currentSlot += 1
    const now = Date.now()
    for (const stream of this.streams) {
      if (now - stream.openedAt >= this.maxConnectionMs) {
        this.end(stream, TIMEOUT_NOTICE)
        continue
      }
      const ids = stream.ids.filter((id) => this.feeds.has(id))
      if (ids.length === 0) continue
      const entries = ids.map((id) => this.feeds.get(id)!.entry)
      if (entries.some((entry) => entry === undefined)) {
        this.write(stream, errorFrame(MESSAGE_NOT_FOUND))
        continue
      }
      let parsed = entries as HermesParsedEntry[]
      if (stream.benchmarksOnly) {
        parsed = parsed.filter(
          (entry) => entry.metadata.prev_publish_time !== null && entry.metadata.prev_publish_time !== entry.price.publish_time,
        )
        if (parsed.length === 0) continue
      }
      this.write(stream, this.priceFrame(stream, parsed))
    }
  }

  /** Sends one price-update event with exactly these parsed entries to every open stream. */
  push(entries: readonly HermesParsedEntry[]): void {
    for (const stream of this.streams) this.write(stream, this.priceFrame(stream, entries))
  }

  /** Sends one event whose data is this text, verbatim (for malformed payloads). */
  pushRaw(text: string): void {
    const dataLines = text.split('\n').map((line) => `data:${line}\n`)
    for (const stream of this.streams) this.write(stream, `${dataLines.join('')}\n`)
  }

  /** Sends an error event, as Hermes does in place of an update it could not build, e.g. "Error receiving update: Lagged(3)". */
  sendError(message: string): void {
    for (const stream of this.streams) this.write(stream, errorFrame(message))
  }

  /** Ends every open stream the way Hermes ends a 24-hour-old one: the timeout error event, then the end. */
  dropConnections(): void {
    for (const stream of this.streams) this.end(stream, TIMEOUT_NOTICE)
  }

  /** Ends every open stream the way Hermes drops a consumer that lags behind its broadcast. */
  disconnectSlowConsumers(): void {
    for (const stream of this.streams) this.end(stream, SLOW_CONSUMER_NOTICE)
  }

  /** Refuses the next request to this path with this HTTP status; calls queue up. */
  failNext(status: number, path = STREAM_PATH): void {
    this.refusals.push({ path, status })
  }

  async waitForConnections(count: number, timeoutMs = EVENT_DEADLINE_MS): Promise<void> {
    await waitFor(() => this.connections >= count, { timeoutMs, what: `${count} Hermes stream requests` })
  }

  async waitForOpenStreams(count: number, timeoutMs = EVENT_DEADLINE_MS): Promise<void> {
    await waitFor(() => this.openStreams === count, { timeoutMs, what: `${count} open Hermes streams` })
  }

  async close(): Promise<void> {
    clearInterval(this.slotTimer)
    for (const stream of this.streams) {
      clearTimeout(stream.keepAlive)
      stream.response.end()
    }
    await new Promise<void>((resolve) => {
      this.server.close(() => resolve())
      this.server.closeAllConnections()
    })
  }

  private handle(request: IncomingMessage, response: ServerResponse): void {
    const url = new URL(request.url ?? '/', this.url)
    this.requests.set(url.pathname, (this.requests.get(url.pathname) ?? 0) + 1)
    this.lastAuthorization = request.headers.authorization
    const isStream = request.method === 'GET' && url.pathname === STREAM_PATH
    if (isStream) this.connections += 1
    this.answer(request, response, url, isStream)
    if (isStream) this.emit('connect')
  }

  private answer(request: IncomingMessage, response: ServerResponse, url: URL, isStream: boolean): void {
    const limited = this.rateLimit?.check(request.socket.remoteAddress ?? '', Date.now())
    if (limited) {
      const headers = limited.retryAfterSeconds === undefined ? {} : { 'retry-after': String(limited.retryAfterSeconds) }
      response.writeHead(429, { 'content-type': TEXT, ...headers }).end('Too Many Requests')
      return
    }
    const authRefusal = this.options.apiKey === undefined ? undefined : hermesAuthRefusal(request, url, this.options.apiKey)
    if (authRefusal) {
      response.writeHead(authRefusal.status, { 'content-type': TEXT }).end(authRefusal.body)
      return
    }
    const refusalIndex = this.refusals.findIndex((refusal) => refusal.path === url.pathname)
    if (refusalIndex >= 0) {
      const { status } = this.refusals.splice(refusalIndex, 1)[0]!
      response.writeHead(status, { 'content-type': TEXT }).end(`refused by test (${status})`)
      return
    }
    if (request.method === 'GET' && url.pathname === PRICE_FEEDS_PATH) return this.listFeeds(response, url)
    if (isStream) return this.openStream(response, url)
    // axum's fallback: 404 with an empty body
    response.writeHead(404).end()
  }

  private listFeeds(response: ServerResponse, url: URL): void {
    const query = url.searchParams.get('query')?.toLowerCase()
    const assetType = url.searchParams.get('asset_type')?.toLowerCase()
    const listed = [...this.feeds].flatMap(([id, { symbol }]) => {
      const attributes = feedAttributes(symbol)
      if (query !== undefined && !symbol.toLowerCase().includes(query)) return []
      if (assetType !== undefined && attributes.asset_type.toLowerCase() !== assetType) return []
      return [{ id, attributes }]
    })
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(listed))
  }

  private openStream(response: ServerResponse, url: URL): void {
    this.requestedIds = url.searchParams.getAll('ids[]')
    this.requestedQuery = url.searchParams
    const query = readStreamQuery(url.searchParams)
    if ('error' in query) {
      response.writeHead(400, { 'content-type': TEXT }).end(`Failed to deserialize query string: ${query.error}`)
      return
    }
    const unknown = query.ids.filter((id) => !this.feeds.has(id))
    if (unknown.length > 0 && !query.ignoreInvalidPriceIds) {
      response.writeHead(404, { 'content-type': TEXT }).end(`Price ids not found: ${unknown.map((id) => `0x${id}`).join(', ')}`)
      return
    }
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
    response.flushHeaders()
    const stream: Subscription = {
      response,
      ids: query.ids.filter((id) => this.feeds.has(id)),
      encoding: query.encoding,
      parsed: query.parsed,
      benchmarksOnly: query.benchmarksOnly,
      openedAt: Date.now(),
      keepAlive: undefined,
    }
    this.armKeepAlive(stream)
    this.streams.add(stream)
    response.on('close', () => {
      clearTimeout(stream.keepAlive)
      this.streams.delete(stream)
      this.emit('disconnect')
    })
  }

  private priceFrame(stream: Subscription, entries: readonly HermesParsedEntry[]): string {
    const update = {
      binary: { encoding: stream.encoding, data: [BINARY_PLACEHOLDER[stream.encoding]] },
      ...(stream.parsed && { parsed: entries }),
    }
    return `data:${JSON.stringify(update)}\n\n`
  }

  private write(stream: Subscription, frame: string): void {
    stream.response.write(frame)
    this.armKeepAlive(stream)
  }

  /** The keep-alive timer restarts with every event, so comments come only after a quiet interval. */
  private armKeepAlive(stream: Subscription): void {
    clearTimeout(stream.keepAlive)
    stream.keepAlive = setTimeout(() => {
      this.keepAlivesSent += 1
      this.write(stream, ':\n\n')
    }, this.keepAliveMs)
  }

  private end(stream: Subscription, notice: string): void {
    clearTimeout(stream.keepAlive)
    this.streams.delete(stream)
    stream.response.end(errorFrame(notice))
  }
}

interface StreamQuery {
  ids: string[]
  encoding: keyof typeof BINARY_PLACEHOLDER
  parsed: boolean
  benchmarksOnly: boolean
  ignoreInvalidPriceIds: boolean
}

/** The stream's query as Hermes deserialises it: hex ids with or without 0x, strict booleans. */
function readStreamQuery(params: URLSearchParams): StreamQuery | { error: string } {
  const ids = params.getAll('ids[]')
  const badId = ids.find((id) => !PRICE_ID.test(id))
  if (badId !== undefined) return { error: `ids[]: invalid price id ${badId}` }
  const encoding = params.get('encoding') ?? 'hex'
  if (encoding !== 'hex' && encoding !== 'base64')
    return { error: `encoding: unknown variant \`${encoding}\`, expected \`hex\` or \`base64\`` }
  const flags = { parsed: true, allow_unordered: false, benchmarks_only: false, ignore_invalid_price_ids: false }
  for (const name of Object.keys(flags) as Array<keyof typeof flags>) {
    const value = params.get(name)
    if (value === null) continue
    if (value !== 'true' && value !== 'false') return { error: `${name}: provided string was not \`true\` or \`false\`` }
    flags[name] = value === 'true'
  }
  return {
    ids: ids.map(bareId),
    encoding,
    parsed: flags.parsed,
    benchmarksOnly: flags.benchmarks_only,
    ignoreInvalidPriceIds: flags.ignore_invalid_price_ids,
  }
}

/** The attributes /v2/price_feeds lists for a symbol such as "Crypto.BTC/USD" or "Equity.US.AAPL/USD". */
function feedAttributes(symbol: string): Record<string, string> & { asset_type: string } {
  const [assetType = '', ...rest] = symbol.split('.')
  const pair = rest.at(-1) ?? ''
  const [base = pair, quote = 'USD'] = pair.split('/')
  return { asset_type: assetType, base, display_symbol: `${base}/${quote}`, quote_currency: quote, symbol }
}

function venueFeeds(): HermesFeed[] {
  return FEED_IDS.flatMap((entry) => (entry.pythSymbol ? [{ id: entry.feedId, symbol: entry.pythSymbol }] : []))
}

function errorFrame(message: string): string {
  return `event:error\ndata:${message}\n\n`
}

function bareId(id: string): string {
  return id.replace(/^0x/i, '').toLowerCase()
}
