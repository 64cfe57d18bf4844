// An edge's candle routes over a store and the History API stand-in, with the clock in the test's hands.

import type { Test } from 'tap'
import type { Redis } from 'ioredis'
import { randomUUID } from 'node:crypto'
import { createMetrics, type Metrics } from '../../../../kit/metrics.ts'
import { Secret } from '../../../../kit/secret.ts'
import { startHistoryStandin, type HistoryStandin, type HistoryStandinOptions } from '../../../../standins/history/index.ts'
import { serveRoutes, type RouteServer } from '../../../../test/support/route-server.ts'
import { silentLogger } from '../../../../test/support/silent-logger.ts'
import type { CandleStore } from '../../candle-store.ts'
import { createCandleStore } from '../../create-candle-store.ts'
import { ohlcRoutes } from '../../routes.ts'
import { udfRoutes } from '../../udf/udf-routes.ts'
import { callBudget } from '../call-budget.ts'
import { historyFailureCodec } from '../history-failures.ts'
import { memoryHistoryLedger, redisHistoryLedger } from '../history-ledger.ts'
import { marketActivity } from '../market-activity.ts'
import { udfHistoryClient } from '../udf-history-client.ts'
import { upstreamHistory, type UpstreamHistory } from '../upstream-history.ts'

/** Wednesday 2026-11-25 15:00 UTC, during the US session. */
export const NOW = Date.UTC(2026, 10, 25, 15) / 1000

export interface HistoryFixture {
  standin: HistoryStandin
  store: CandleStore
  upstream: UpstreamHistory
  server: RouteServer
  metrics: Metrics
  /** POST /v1/ohlc from a client address of its own (its own rate-limit budget) */
  ohlc(body: object): Promise<Response>
  clock: { now: number }
}

export interface FixtureOptions {
  /** a stand-in already running (replicas share one); else one is started */
  standin?: HistoryStandin
  standinOptions?: HistoryStandinOptions
  redis?: Redis
  keyPrefix?: string
  keepPerResolution?: number
  callsPerMinute?: number
  timeoutMs?: number
  barsPerCall?: number
  apiKey?: string
}

let clients = 0

export async function historyFixture(t: Test, options: FixtureOptions = {}): Promise<HistoryFixture> {
  const clock = { now: NOW * 1000 }
  const now = () => clock.now
  const standin = options.standin ?? (await startHistoryStandin({ anchorMs: (NOW - 600) * 1000, now, ...options.standinOptions }))
  if (!options.standin) t.teardown(() => standin.close())
  const keyPrefix = options.keyPrefix ?? `t-${randomUUID()}`
  const keepPerResolution = options.keepPerResolution ?? 20_160
  const store = createCandleStore({ redis: options.redis, keyPrefix, keepPerResolution })
  const metrics = createMetrics()
  const upstream = upstreamHistory({
    store,
    ledger: options.redis ? redisHistoryLedger({ redis: options.redis, keyPrefix, failures: historyFailureCodec }) : memoryHistoryLedger(),
    client: udfHistoryClient({
      url: standin.channelUrl(),
      apiKey: options.apiKey === undefined ? undefined : new Secret(options.apiKey),
    }),
    budget: callBudget({ callsPerMinute: options.callsPerMinute ?? 1000, redis: options.redis, keyPrefix }),
    barsPerCall: options.barsPerCall ?? 1000,
    keepPerResolution,
    settleSeconds: 5,
    marketActive: marketActivity(),
    metrics,
    logger: silentLogger(),
    now,
  })
  const source = { store, history: { upstream, timeoutMs: options.timeoutMs ?? 5000 } }
  const server = await serveRoutes([...ohlcRoutes(source), ...udfRoutes(source, { now })], { metrics })
  t.teardown(() => server.close())
  const ohlc = (body: object) =>
    fetch(`${server.baseUrl}/v1/ohlc`, {
      method: 'POST',
      body: JSON.stringify(body),
      headers: { 'content-type': 'application/json', 'x-forwarded-for': `198.18.${Math.floor(++clients / 250)}.${(clients % 250) + 1}` },
    })
  return { standin, store, upstream, server, metrics, ohlc, clock }
}

/** The stand-in's bars as POST /v1/ohlc answers candles. */
export function asOhlc(bars: Array<{ time: number; open: number; high: number; low: number; close: number }>, from: string, to: string) {
  return bars.map(({ time, open, high, low, close }) => ({ from, to, time: time * 1000, open, high, low, close }))
}
