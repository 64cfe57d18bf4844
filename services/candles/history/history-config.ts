// The `HISTORY_*` variables: where the upstream history source is, its key, and what the service may
// spend on it. Checked with the candle configuration at start (a backfill longer than the store keeps a
// resolution is refused there, not discovered later).

import { z } from 'zod'
import { envInt, envOptionalUrl, parseEnv, type Env } from '../../../kit/env-parsing.ts'
import { ServiceError } from '../../../kit/errors.ts'
import { readSecretFile, Secret } from '../../../kit/secret.ts'
import { OHLC_RESOLUTIONS, type OhlcResolution } from '../../../schemas/ohlc.ts'
import { RESOLUTION_SECONDS } from '../resolutions.ts'

const DURATION = /^(\d{1,5})([mhd])$/
const UNIT_SECONDS = { m: 60, h: 3_600, d: 86_400 } as const
export const DEFAULT_BACKFILL = '1:1d,60:30d'

/** `1:1d,60:30d,1D:365d` → how far back each listed resolution is filled at start, in seconds; undefined if malformed. */
function parseBackfill(text: string): Partial<Record<OhlcResolution, number>> | undefined {
  const lookbacks: Partial<Record<OhlcResolution, number>> = {}
  for (const entry of text
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean)) {
    const [resolution, duration] = entry.split(':')
    const match = DURATION.exec(duration ?? '')
    if (!(OHLC_RESOLUTIONS as readonly string[]).includes(resolution ?? '') || !match) return undefined
    lookbacks[resolution as OhlcResolution] = Number(match[1]) * UNIT_SECONDS[match[2] as keyof typeof UNIT_SECONDS]
  }
  return lookbacks
}

export const HistoryEnv = z
  .object({
    HISTORY_URL: envOptionalUrl.describe(
      'the TradingView-UDF history source up to and including the channel (Pyth Pro: `https://pyth.dourolabs.app/v1/fixed_rate@200ms`); the service appends `/history`. Unset: candles come from our own ticks only (`npm start` runs the History API stand-in)',
    ),
    HISTORY_API_KEY: z
      .string()
      .min(1)
      .optional()
      .describe('sent as `Authorization: Bearer` (Pyth Pro requires one since 2026-07-24); never logged'),
    HISTORY_API_KEY_FILE: z.string().min(1).optional().describe('a file holding only the key instead (e.g. a mounted secret); not both'),
    HISTORY_TIMEOUT_MS: envInt(5000, { min: 100, max: 60_000 }).describe(
      "deadline of a request's upstream part (every call it makes or waits for): past it, `504` in the upstream-proxy shape",
    ),
    HISTORY_CALLS_PER_MINUTE: envInt(120, { min: 1, max: 100_000 }).describe(
      'upstream calls per minute, shared by every replica through Redis; backfill and repair use at most half, requests the rest (`503` when spent)',
    ),
    HISTORY_BARS_PER_CALL: envInt(1000, { min: 10, max: 10_000 }).describe('bars one upstream call asks for at most (ranges are split)'),
    HISTORY_BACKFILL: z
      .string()
      .default(DEFAULT_BACKFILL)
      .refine(
        (text) => parseBackfill(text) !== undefined,
        `must be <resolution>:<duration>,… (resolutions ${OHLC_RESOLUTIONS.join(', ')}; durations like 90m, 12h, 30d)`,
      )
      .describe(
        'how far back each resolution is filled at start, in the background, e.g. `1:1d,60:30d,1D:365d`; the `1` entry is also the window in which missed minutes are repaired, every 10 s. Empty: none',
      ),
  })
  .refine((env) => !(env.HISTORY_API_KEY && env.HISTORY_API_KEY_FILE), {
    message: 'set HISTORY_API_KEY or HISTORY_API_KEY_FILE, not both',
    path: ['HISTORY_API_KEY'],
  })

export interface HistoryConfig {
  /** undefined: no upstream history (unless the embedded stand-in is handed in) */
  url: string | undefined
  apiKey: Secret<string> | undefined
  timeoutMs: number
  callsPerMinute: number
  barsPerCall: number
  /** seconds of history filled at start per resolution; the `1` entry is the repair window */
  backfillSeconds: Partial<Record<OhlcResolution, number>>
}

/** Reads the variables; `keepPerResolution` is the store's retention, which no backfill may exceed. */
export function historyConfig(env: Env, keepPerResolution: number): HistoryConfig {
  const parsed = parseEnv(HistoryEnv, env, 'history')
  const backfillSeconds = parseBackfill(parsed.HISTORY_BACKFILL)!
  const tooLong = (Object.entries(backfillSeconds) as Array<[OhlcResolution, number]>).filter(
    ([resolution, seconds]) => seconds > keepPerResolution * RESOLUTION_SECONDS[resolution],
  )
  if (tooLong.length > 0) {
    const described = tooLong.map(([resolution]) => `${resolution} beyond ${keepPerResolution} candles`).join(', ')
    throw new ServiceError(
      'config_invalid',
      `invalid configuration for history: HISTORY_BACKFILL=${JSON.stringify(env.HISTORY_BACKFILL ?? DEFAULT_BACKFILL)}: reaches back further than the store keeps (${described}; CANDLES_KEEP_PER_RESOLUTION)`,
    )
  }
  const key =
    parsed.HISTORY_API_KEY ??
    (parsed.HISTORY_API_KEY_FILE === undefined
      ? undefined
      : readSecretFile('history', 'HISTORY_API_KEY_FILE', parsed.HISTORY_API_KEY_FILE, {
          check: (text) => text !== '' && !/\s/.test(text),
          what: 'one key',
        }))
  return {
    url: parsed.HISTORY_URL,
    apiKey: key === undefined ? undefined : new Secret(key),
    timeoutMs: parsed.HISTORY_TIMEOUT_MS,
    callsPerMinute: parsed.HISTORY_CALLS_PER_MINUTE,
    barsPerCall: parsed.HISTORY_BARS_PER_CALL,
    backfillSeconds,
  }
}

/** A history source this process started for the embedded default, and how to stop it. */
export interface EmbeddedHistorySource {
  /** the base up to the channel, as HISTORY_URL holds it */
  url: string
  /** the instant (ms) its prices pass through the simulator's starting mids, where its history joins our candles */
  anchoredAt: number
  close(): Promise<void>
}

/** Starts the History API stand-in when no HISTORY_URL is set (`npm start` passes it from standins/; production none). */
export type EmbeddedHistoryStarter = () => Promise<EmbeddedHistorySource>
