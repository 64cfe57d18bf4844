// A stand-in for Pyth Pro's History API: a real HTTP server on 127.0.0.1 answering under `/v1` as
// https://pyth.dourolabs.app/v1 does, with generated, deterministic bars, switchable faults, an optional
// API key and an optional rate limit. README.md beside this file names, per behaviour, its source.

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { barsBetween, isResolution, marketStates, RESOLUTIONS } from './bars.ts'
import { CHANNELS, feedById, feedBySymbol, HISTORY_FEEDS, servedOn, type Channel, type HistoryFeed } from './catalog.ts'
import { UDF_ERROR_MESSAGE, type Fault } from './faults.ts'
import { PricePath } from './price-path.ts'
import { configAnswer, searchAnswer, symbolInfo, symbolListEntry } from './udf-answers.ts'

export interface HistoryStandinOptions {
  /** default 127.0.0.1 */
  host?: string
  /** default 0: any free port */
  port?: number
  /** the instant (ms) at which every feed's price is the simulator's starting mid; default: when the stand-in starts */
  anchorMs?: number
  /** seed of the walks; default 1, as the simulator's */
  seed?: number
  /** the wall clock: no bar after it; default Date.now */
  now?: () => number
  /** when set, `/{channel}/history` and `/{channel}/price` need `Authorization: Bearer <key>` */
  apiKey?: string
  /** at most this many bars per answer (the earliest ones); default 5000 */
  maxBars?: number
  /** requests per window per client address, then 429 for `penaltyMs`; default none (Pyth Pro sets no hard limit) */
  rateLimit?: { requests: number; windowMs: number; penaltyMs: number }
}

export interface HistoryRequest {
  path: string
  query: URLSearchParams
  authorization: string | undefined
}

export interface HistoryStandin {
  /** the base up to the channel, e.g. http://127.0.0.1:8091/v1/fixed_rate@200ms: what HISTORY_URL holds */
  channelUrl(channel?: Channel): string
  /** http://127.0.0.1:8091/v1 */
  readonly baseUrl: string
  /** every `/{channel}/history` request received, in order (answered or not) */
  readonly historyRequests: readonly HistoryRequest[]
  /** applies to every `/{channel}/history` request from now on */
  setFault(fault: Fault): void
  /** the bars the stand-in serves, without HTTP: the reference a test compares the service's candles with */
  bars(
    symbol: string,
    resolution: string,
    fromSeconds: number,
    toSeconds: number,
  ): Array<{ time: number; open: number; high: number; low: number; close: number }>
  /** stops listening and drops every open connection, hanging ones included; safe to call twice */
  close(): Promise<void>
}

interface Answer {
  status: number
  contentType?: string
  body: string
}

const JSON_TYPE = 'application/json'
const TEXT_TYPE = 'text/plain; charset=utf-8'
const HISTORY_FIELDS = ['symbol', 'resolution', 'from', 'to'] as const

const json = (status: number, value: unknown): Answer => ({ status, contentType: JSON_TYPE, body: JSON.stringify(value) })
const text = (status: number, body: string): Answer => ({ status, contentType: TEXT_TYPE, body })
/** axum's Query extractor refuses a query it cannot deserialize with a 400 in these words */
const badQuery = (detail: string) => text(400, `Failed to deserialize query string: ${detail}`)

export async function startHistoryStandin(options: HistoryStandinOptions = {}): Promise<HistoryStandin> {
  const { host = '127.0.0.1', port = 0, seed = 1, now = Date.now, apiKey, maxBars = 5000, rateLimit } = options
  const anchorMinute = Math.floor((options.anchorMs ?? now()) / 60_000)
  const paths = new Map<string, PricePath>()
  const pathOf = (feed: HistoryFeed) => {
    let path = paths.get(feed.symbol)
    if (!path) paths.set(feed.symbol, (path = new PricePath(feed, anchorMinute, seed)))
    return path
  }
  const market = marketStates()
  const historyRequests: HistoryRequest[] = []
  const limiter = rateLimit && fixedWindowLimiter(rateLimit, now)
  const hanging = new Set<ServerResponse>()
  const sockets = new Set<Socket>()
  let fault: Fault = 'none'

  const barsOf = (feed: HistoryFeed, resolution: string, from: number, to: number) =>
    isResolution(resolution) ? barsBetween(pathOf(feed), feed, market, resolution, { from, to, now: now() / 1000 }) : []

  function history(query: URLSearchParams, channel: Channel): Answer | 'hang' | 'reset' {
    for (const field of HISTORY_FIELDS) if (!query.has(field)) return badQuery(`missing field \`${field}\``)
    const [from, to] = [integerField(query, 'from'), integerField(query, 'to')]
    if (typeof from === 'string') return badQuery(from)
    if (typeof to === 'string') return badQuery(to)
    const resolution = query.get('resolution')!
    if (!isResolution(resolution)) {
      return badQuery(`resolution: unknown variant \`${resolution}\`, expected one of ${RESOLUTIONS.map((r) => `\`${r}\``).join(', ')}`)
    }
    const symbol = query.get('symbol')!
    const feed = feedBySymbol(symbol)
    if (!feed) return json(404, { error: `Symbol not found: ${symbol}` })
    if (!servedOn(feed, channel)) return json(404, { error: `Symbol ${feed.symbol} is not available on channel ${channel}` })
    if (fault === 'hang' || fault === 'reset') return fault
    if (fault === 'http-500') return text(500, 'Internal Server Error')
    if (fault === 'udf-error') return json(200, { s: 'error', errmsg: UDF_ERROR_MESSAGE })
    if (fault === 'malformed') return { status: 200, contentType: JSON_TYPE, body: '{"s":"ok","t":[1' }
    const bars = barsOf(feed, resolution, from, to).slice(0, maxBars)
    return json(200, {
      s: bars.length === 0 ? 'no_data' : 'ok',
      t: bars.map((bar) => bar.time),
      o: bars.map((bar) => bar.open),
      h: bars.map((bar) => bar.high),
      l: bars.map((bar) => bar.low),
      c: bars.map((bar) => bar.close),
      v: bars.map(() => 0),
    })
  }

  function price(query: URLSearchParams, channel: Channel): Answer {
    if (!query.has('ids')) return badQuery('missing field `ids`')
    if (!query.has('timestamp')) return badQuery('missing field `timestamp`')
    const timestamp = integerField(query, 'timestamp')
    if (typeof timestamp === 'string') return badQuery(timestamp)
    const ids = query.getAll('ids').flatMap((value) => value.split(','))
    if (ids.some((id) => !/^\d+$/.test(id))) return badQuery('ids: invalid digit found in string')
    const seconds = Math.floor(timestamp / 1_000_000)
    return json(
      200,
      ids.flatMap((id) => {
        const feed = feedById(Number(id))
        if (!feed || !servedOn(feed, channel) || !market(feed, seconds).open || seconds > now() / 1000) return []
        const mid = pathOf(feed).priceAt(Math.floor(seconds / 60))
        const scale = 10 ** -feed.exponent
        return [
          {
            price_feed_id: feed.lazerId,
            channel,
            publish_time: seconds,
            price: Math.round(mid * scale),
            exponent: feed.exponent,
            best_bid_price: Math.round(mid * 0.9999 * scale),
            best_ask_price: Math.round(mid * 1.0001 * scale),
            confidence: Math.round(mid * 0.0001 * scale),
            publisher_count: 5,
          },
        ]
      }),
    )
  }

  function route(path: string, query: URLSearchParams): Answer | 'hang' | 'reset' {
    if (path === '/v1/live') return text(200, 'OK')
    if (path === '/v1/symbols') {
      const wanted = (query.get('query') ?? '').toUpperCase()
      const assetType = query.get('asset_type')
      return json(
        200,
        HISTORY_FEEDS.filter((feed) => feed.symbol.toUpperCase().includes(wanted) && (!assetType || feed.assetType === assetType)).map(
          symbolListEntry,
        ),
      )
    }
    const match = /^\/v1\/([^/]+)\/(history|price|symbols|search|config)$/.exec(path)
    if (!match) return text(404, '')
    const channel = decodeURIComponent(match[1]!)
    if (!(CHANNELS as readonly string[]).includes(channel)) return text(400, `Invalid URL: Cannot parse \`${channel}\` to a \`Channel\``)
    switch (match[2]) {
      case 'history':
        return history(query, channel as Channel)
      case 'price':
        return price(query, channel as Channel)
      case 'config':
        return json(200, configAnswer())
      case 'search':
        return json(
          200,
          searchAnswer(query.get('query') ?? '', query.get('type') ?? '', query.get('exchange') ?? '', Number(query.get('limit') ?? 15)),
        )
      default: {
        if (!query.has('symbol')) return badQuery('missing field `symbol`')
        const feed = feedBySymbol(query.get('symbol')!)
        return feed ? json(200, symbolInfo(feed)) : json(404, { error: `Symbol not found: ${query.get('symbol')}` })
      }
    }
  }

  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', 'http://stand-in')
    const authorization = request.headers.authorization
    if (/\/history$/.test(url.pathname)) historyRequests.push({ path: url.pathname, query: url.searchParams, authorization })
    if (request.method !== 'GET') return send(response, { status: 405, body: '' }, { allow: 'GET,HEAD' })
    if (limiter && !limiter(request.socket.remoteAddress ?? '')) return send(response, text(429, 'Too Many Requests'))
    if (apiKey && /\/(history|price)$/.test(url.pathname)) {
      const refusal = keyRefusal(authorization, apiKey)
      if (refusal) return send(response, refusal)
    }
    const answer = route(url.pathname, url.searchParams)
    if (answer === 'hang') return void hanging.add(response)
    if (answer === 'reset') return void request.socket.destroy()
    send(response, answer)
  })
  server.on('connection', (socket) => {
    sockets.add(socket)
    socket.once('close', () => sockets.delete(socket))
  })
  await new Promise<void>((resolve) => server.listen(port, host, resolve))
  const address = server.address() as AddressInfo
  const baseUrl = `http://${host}:${address.port}/v1`
  let closing: Promise<void> | undefined

  return {
    baseUrl,
    historyRequests,
    channelUrl: (channel = 'fixed_rate@200ms') => `${baseUrl}/${channel}`,
    setFault: (next) => void (fault = next),
    bars(symbol, resolution, from, to) {
      const feed = feedBySymbol(symbol)
      if (!feed) throw new Error(`the stand-in has no feed ${symbol}`)
      return barsOf(feed, resolution, from, to)
    },
    close: () =>
      (closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve())
        for (const socket of sockets) socket.destroy()
        hanging.clear()
      })),
  }
}

function send(response: ServerResponse, answer: Answer, headers: Record<string, string> = {}): void {
  response.writeHead(answer.status, { ...(answer.contentType && { 'content-type': answer.contentType }), ...headers })
  response.end(answer.body)
}

/** A whole number in a query field, or the words serde uses to refuse it. */
function integerField(query: URLSearchParams, name: string): number | string {
  const value = query.get(name)!
  return /^-?\d+$/.test(value) ? Number(value) : `${name}: invalid digit found in string`
}

/** No key: 401; another key: 403 (plain text; Pyth's own bodies are not published). */
function keyRefusal(authorization: string | undefined, apiKey: string): Answer | undefined {
  const match = /^bearer\s+(.+)$/i.exec(authorization ?? '')
  if (!match) return text(401, 'Unauthorized: missing or malformed API key')
  return match[1]!.trim() === apiKey ? undefined : text(403, 'Forbidden: API key not accepted')
}

/** Requests per fixed window per address; past it, every request is refused until the penalty has passed. */
function fixedWindowLimiter(
  limit: { requests: number; windowMs: number; penaltyMs: number },
  now: () => number,
): (address: string) => boolean {
  const windows = new Map<string, { startedAt: number; count: number; blockedUntil: number }>()
  return (address) => {
    const at = now()
    const window = windows.get(address) ?? { startedAt: at, count: 0, blockedUntil: 0 }
    windows.set(address, window)
    if (window.blockedUntil > at) return false
    if (at - window.startedAt >= limit.windowMs) Object.assign(window, { startedAt: at, count: 0 })
    window.count++
    if (window.count <= limit.requests) return true
    window.blockedUntil = at + limit.penaltyMs
    return false
  }
}
