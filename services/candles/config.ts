import { z } from 'zod'
import { envInt, parseEnv, type Env } from '../../kit/env-parsing.ts'
import { DEFAULT_KEEP_PER_RESOLUTION } from './candle-store.ts'

export const DEFAULT_MAX_CANDLES_PER_RESPONSE = 1000

export const CandlesEnv = z.object({
  CANDLES_MAX_PER_RESPONSE: envInt(DEFAULT_MAX_CANDLES_PER_RESPONSE)
    .pipe(z.number().int().min(1).max(10_000))
    .describe('candles per `POST /v1/ohlc` answer at most; longer ranges page via `lastRequestTimestamp`'),
  CANDLES_FLUSH_INTERVAL_MS: envInt(1000)
    .pipe(z.number().int().min(10).max(60_000))
    .describe('how often the writer merges folded ticks into the store'),
  CANDLES_KEEP_PER_RESOLUTION: envInt(DEFAULT_KEEP_PER_RESOLUTION)
    .pipe(z.number().int().min(1))
    .describe('newest candles kept per pair and resolution'),
  CANDLES_KEY_PREFIX: z.string().min(1).default('candles').describe('prefix of the candle keys in Redis'),
  CANDLES_QUEUE_GROUP: z
    .string()
    .regex(/^[A-Za-z0-9_.-]+$/)
    .default('candle-writers')
    .describe('NATS queue group of the candle writers when Redis is shared: each tick is folded by one of them'),
})

export type CandlesConfig = z.infer<typeof CandlesEnv>

export function candlesConfig(env: Env): CandlesConfig {
  return parseEnv(CandlesEnv, env, 'candles')
}
