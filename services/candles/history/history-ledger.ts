// What the replicas share about the history source: which spans each pair and resolution has already
// been asked about (so none is asked twice), and one call at a time for identical fetches, whichever
// process or replica asks (the others wait for its outcome). In Redis when configured, in memory otherwise.

import { randomUUID } from 'node:crypto'
import type { Redis } from 'ioredis'
import type { OhlcResolution } from '../../../schemas/ohlc.ts'
import { luaScript, redisCommands } from '../redis-commands.ts'
import { withSpan, type Span } from './coverage.ts'

/** Who made the call a caller got its outcome from. */
export type CallSharing = 'made' | 'replica' | 'cluster'

export interface HistoryLedger {
  readonly kind: 'redis' | 'memory'
  /** the spans asked about, sorted and disjoint */
  covered(pair: string, resolution: OhlcResolution): Promise<Span[]>
  cover(pair: string, resolution: OhlcResolution, span: Span): Promise<void>
  /**
   * Runs `call` once for every concurrent caller with this key, in this process and (with Redis) every
   * replica: the others wait for its outcome (a value, or the same failure) until `signal` ends their wait.
   * The value must survive JSON; `encodeFailure` and `decodeFailure` carry a failure to other replicas.
   */
  once<T>(key: string, call: () => Promise<T>, signal: AbortSignal): Promise<{ value: T; sharing: CallSharing }>
}

/** A failure as other replicas read it: `encode` writes it, `decode` turns it back into the error the caller would have seen. */
export interface FailureCodec {
  encode(error: unknown): unknown
  decode(encoded: unknown): Error
}

export function memoryHistoryLedger(): HistoryLedger {
  const spans = new Map<string, Span[]>()
  return {
    kind: 'memory',
    covered: async (pair, resolution) => spans.get(`${pair} ${resolution}`) ?? [],
    async cover(pair, resolution, span) {
      const key = `${pair} ${resolution}`
      spans.set(key, withSpan(spans.get(key) ?? [], span))
    },
    once: inProcessOnce((_key, call) => call().then((value) => ({ value, sharing: 'made' as const }))),
  }
}

const ADD_SPAN_SCRIPT = luaScript(new URL('./add-span.lua', import.meta.url))
/** Compare-and-delete: a lock is released only by its holder. */
const RELEASE_SCRIPT = "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0"
/** How long another replica may read a call's outcome after it ended. */
const OUTCOME_TTL_MS = { value: 15_000, failure: 5_000 }
const POLL_MS = 25

export function redisHistoryLedger(options: {
  redis: Redis
  keyPrefix: string
  failures: FailureCodec
  timeoutMs?: number
}): HistoryLedger {
  const { redis, keyPrefix, failures } = options
  // an unreachable Redis fails a command at once, or after 2 s, rather than queueing it
  const { run, evalScript } = redisCommands(redis, options.timeoutMs ?? 2000)
  // one hash per pair (its hash tag keeps it on the pair's Redis Cluster slot), a field per resolution
  const coverageKey = (pair: string) => `${keyPrefix}:covered:{${pair}}`

  /** The call across replicas: the lock's holder calls and writes the outcome; the others poll for it. */
  const acrossReplicas = async <T>(
    key: string,
    call: () => Promise<T>,
    signal: AbortSignal,
  ): Promise<{ value: T; sharing: CallSharing }> => {
    const lock = `${keyPrefix}:call:${key}`
    const outcome = `${lock}:outcome`
    const token = randomUUID()
    /** The outcome a holder wrote, as this caller would have seen it; undefined while there is none. */
    const sharedOutcome = async (): Promise<{ value: T; sharing: 'cluster' } | undefined> => {
      const written = await run(() => redis.get(outcome))
      if (written === null) return undefined
      const parsed = JSON.parse(written) as { value?: T; failure?: unknown }
      if ('failure' in parsed) throw failures.decode(parsed.failure)
      return { value: parsed.value as T, sharing: 'cluster' }
    }
    const callAndShare = async (): Promise<T> => {
      try {
        const value = await call()
        await run(() => redis.set(outcome, JSON.stringify({ value }), 'PX', OUTCOME_TTL_MS.value))
        return value
      } catch (error) {
        await run(() => redis.set(outcome, JSON.stringify({ failure: failures.encode(error) }), 'PX', OUTCOME_TTL_MS.failure)).catch(
          () => undefined,
        )
        throw error
      }
    }
    for (;;) {
      const shared = await sharedOutcome()
      if (shared) return shared
      if (signal.aborted) throw abortReason(signal)
      const won = await run(() => redis.set(lock, token, 'PX', OUTCOME_TTL_MS.value, 'NX'))
      if (won === 'OK') {
        try {
          // the last holder may have written its outcome and let the lock go between the read above and this lock
          return (await sharedOutcome()) ?? { value: await callAndShare(), sharing: 'made' }
        } finally {
          await run(() => redis.eval(RELEASE_SCRIPT, 1, lock, token)).catch(() => undefined)
        }
      }
      await abortableSleep(POLL_MS, signal)
    }
  }

  return {
    kind: 'redis',
    async covered(pair, resolution) {
      const raw = await run(() => redis.hget(coverageKey(pair), resolution))
      const pairs: unknown = raw === null ? [] : JSON.parse(raw)
      // cjson writes an empty Lua table as {}
      return Array.isArray(pairs) ? (pairs as Array<[number, number]>).map(([from, to]) => ({ from, to })) : []
    },
    cover: async (pair, resolution, span) =>
      void (await evalScript(ADD_SPAN_SCRIPT, [coverageKey(pair)], [resolution, String(span.from), String(span.to)])),
    once: inProcessOnce(acrossReplicas),
  }
}

/** Concurrent callers in this process with one key share one `run`; the first caller's signal bounds it. */
function inProcessOnce(
  run: <T>(key: string, call: () => Promise<T>, signal: AbortSignal) => Promise<{ value: T; sharing: CallSharing }>,
): HistoryLedger['once'] {
  const running = new Map<string, Promise<{ value: unknown; sharing: CallSharing }>>()
  return async <T>(key: string, call: () => Promise<T>, signal: AbortSignal) => {
    const shared = running.get(key) as Promise<{ value: T; sharing: CallSharing }> | undefined
    if (shared) {
      const { value } = await untilAborted(shared, signal)
      return { value, sharing: 'replica' as const }
    }
    const started = run(key, call, signal).finally(() => running.delete(key))
    running.set(key, started)
    return started
  }
}

/** Why a wait ended: the signal's reason (a TimeoutError for a deadline). */
function abortReason(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new Error('aborted')
}

function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(abortReason(signal))
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortReason(signal))
    signal.addEventListener('abort', onAbort, { once: true })
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort))
  })
}

function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return untilAborted(new Promise<void>((resolve) => setTimeout(resolve, ms).unref()), signal)
}
