// One `GET {HISTORY_URL}/history` exchange with a TradingView-UDF history source, and what can go wrong
// with it. The answer's arrays become bars; `no_data` is no bars; `{ s: "error" }` is a failure.

import { z } from 'zod'
import { ExchangeFailure } from '../../../kit/errors.ts'
import type { Secret } from '../../../kit/secret.ts'
import type { OhlcResolution } from '../../../schemas/ohlc.ts'
import { periodStart } from '../candle.ts'
import { RESOLUTION_SECONDS } from '../resolutions.ts'

/** The outcomes of a call other than `ok` and `no_data`; also the `outcome` label of the call metric. */
export type HistoryCallFailureKind = 'timeout' | 'network_error' | 'http_error' | 'invalid_response' | 'source_error'

/** A failed call. The message completes "the history source ..." for clients. */
export class HistoryCallFailure extends ExchangeFailure<HistoryCallFailureKind> {
  override readonly name = 'HistoryCallFailure'
}

/** One bar as the source priced it; `time` is its period's start, Unix seconds. */
export interface UpstreamBar {
  time: number
  open: number
  high: number
  low: number
  close: number
}

/** The UDF names of our resolutions (Pyth's History API page lists `D` for a day). */
const UDF_RESOLUTION: Record<OhlcResolution, string> = { '1': '1', '5': '5', '15': '15', '60': '60', '240': '240', '1D': 'D' }

const price = z.number().finite().positive()
const UdfHistoryAnswer = z.discriminatedUnion('s', [
  z.looseObject({
    s: z.literal('ok'),
    t: z.array(z.number().int()),
    o: z.array(price),
    h: z.array(price),
    l: z.array(price),
    c: z.array(price),
  }),
  z.looseObject({ s: z.literal('no_data') }),
  z.looseObject({ s: z.literal('error'), errmsg: z.string().optional() }),
])

export interface UdfHistoryClient {
  /**
   * The source's bars of one resolution whose period starts in [fromSeconds, toSeconds), oldest first.
   * Rejects with HistoryCallFailure; `signal` ends the call (a timeout, a deadline).
   */
  bars(symbol: string, resolution: OhlcResolution, fromSeconds: number, toSeconds: number, signal: AbortSignal): Promise<UpstreamBar[]>
}

export function udfHistoryClient(options: { url: string; apiKey: Secret<string> | undefined }): UdfHistoryClient {
  const endpoint = `${options.url.replace(/\/+$/, '')}/history`
  const headers: Record<string, string> = { accept: 'application/json' }
  if (options.apiKey) headers.authorization = `Bearer ${options.apiKey.reveal()}`
  return {
    async bars(symbol, resolution, fromSeconds, toSeconds, signal) {
      const url = new URL(endpoint)
      url.searchParams.set('symbol', symbol)
      url.searchParams.set('resolution', UDF_RESOLUTION[resolution])
      url.searchParams.set('from', String(fromSeconds))
      // UDF's `to` names the last second asked for: every period starting before toSeconds
      url.searchParams.set('to', String(toSeconds - 1))
      let status: number
      let text: string
      try {
        const response = await fetch(url, { headers, signal })
        status = response.status
        text = await response.text()
      } catch (error) {
        if (signal.aborted) throw new HistoryCallFailure('timeout', 'did not answer in time', { cause: error })
        throw new HistoryCallFailure('network_error', 'cannot be reached (connection refused or dropped)', { cause: error })
      }
      if (status < 200 || status > 299) throw new HistoryCallFailure('http_error', `answered HTTP ${status}`, { cause: text.slice(0, 200) })
      return barsOf(text, resolution, fromSeconds, toSeconds)
    },
  }
}

function barsOf(text: string, resolution: OhlcResolution, fromSeconds: number, toSeconds: number): UpstreamBar[] {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (error) {
    throw new HistoryCallFailure('invalid_response', 'answered something other than JSON', { cause: error })
  }
  const parsed = UdfHistoryAnswer.safeParse(json)
  if (!parsed.success)
    throw new HistoryCallFailure('invalid_response', 'answered something other than UDF history', { cause: parsed.error })
  const answer = parsed.data
  if (answer.s === 'no_data') return []
  if (answer.s === 'error') throw new HistoryCallFailure('source_error', `refused: ${answer.errmsg ?? 'no reason given'}`)
  const { t, o, h, l, c } = answer
  if (![o, h, l, c].every((column) => column.length === t.length)) {
    throw new HistoryCallFailure('invalid_response', 'answered columns of different lengths')
  }
  const width = RESOLUTION_SECONDS[resolution]
  const bars: UpstreamBar[] = []
  for (let index = 0; index < t.length; index++) {
    const time = t[index]!
    // a bar must start one of our periods: candles of two sources are merged period by period
    if (periodStart(time, width) !== time)
      throw new HistoryCallFailure('invalid_response', `answered a bar at ${time}, not at a ${resolution} period start`)
    const [open, high, low, close] = [o[index]!, h[index]!, l[index]!, c[index]!]
    if (high < Math.max(open, close, low) || low > Math.min(open, close)) {
      throw new HistoryCallFailure('invalid_response', `answered a bar at ${time} whose high and low do not hold its open and close`)
    }
    if (time >= fromSeconds && time < toSeconds && (bars.length === 0 || time > bars[bars.length - 1]!.time)) {
      bars.push({ time, open, high, low, close })
    }
  }
  return bars
}
