import { createReadStream } from 'node:fs'
import { createInterface } from 'node:readline'
import { z } from 'zod'
import { feedIdFor } from '../feed-ids.ts'
import type { FeedSink, FeedSource } from './feed-source.ts'

/**
 * One line of a recorded tick file: a price row as the service publishes it (extra fields ignored),
 * optionally with `atMs`, the receive time in milliseconds, which paces the replay more finely than
 * `timestampSeconds`.
 */
const RecordedTick = z.looseObject({
  pair: z.string(),
  bid: z.number(),
  mid: z.number(),
  ask: z.number(),
  timestampSeconds: z.number(),
  feed_id: z.string().optional(),
  atMs: z.number().optional(),
})

export interface ReplayOptions {
  file: string
  /** 1 = as recorded, 10 = ten times faster, 0 = as fast as possible */
  speed: number
  /** start again from the top at the end of the file */
  loop: boolean
  /** called once the file has been replayed (and not looped) */
  onEnd?: () => void
}

/** Replays a JSONL tick file at a chosen speed, for benches and incident replays. */
export function replaySource(options: ReplayOptions): FeedSource {
  const aborter = new AbortController()
  let finished: Promise<void> = Promise.resolve()

  const replayOnce = async (sink: FeedSink) => {
    const lines = createInterface({ input: createReadStream(options.file), crlfDelay: Infinity })
    aborter.signal.addEventListener('abort', () => lines.close(), { once: true })
    let firstRecordedMs: number | undefined
    const startedAt = Date.now()
    let lineNumber = 0
    for await (const line of lines) {
      lineNumber++
      if (line.trim() === '') continue
      const record = parseLine(line)
      if (!record.ok) {
        sink.malformed(record.reason, { file: options.file, line: lineNumber })
        continue
      }
      const tick = record.tick
      const recordedMs = tick.atMs ?? tick.timestampSeconds * 1000
      firstRecordedMs ??= recordedMs
      if (options.speed > 0) {
        const dueIn = startedAt + (recordedMs - firstRecordedMs) / options.speed - Date.now()
        if (dueIn > 0) await delay(dueIn, aborter.signal)
      }
      if (aborter.signal.aborted) return
      sink.quote({
        pair: tick.pair,
        feedId: tick.feed_id ?? feedIdFor(tick.pair),
        bid: tick.bid,
        mid: tick.mid,
        ask: tick.ask,
        publishTimeSeconds: tick.timestampSeconds,
      })
    }
  }

  return {
    name: 'replay',
    start(sink) {
      finished = (async () => {
        do await replayOnce(sink)
        while (options.loop && !aborter.signal.aborted)
        if (!aborter.signal.aborted) options.onEnd?.()
      })().catch((error: unknown) => {
        if (!aborter.signal.aborted) sink.malformed('replay_failed', { file: options.file, error: String(error) })
      })
    },
    async stop() {
      aborter.abort()
      await finished
    },
  }
}

function parseLine(line: string): { ok: true; tick: z.infer<typeof RecordedTick> } | { ok: false; reason: string } {
  let json: unknown
  try {
    json = JSON.parse(line)
  } catch {
    return { ok: false, reason: 'invalid_json' }
  }
  const parsed = RecordedTick.safeParse(json)
  return parsed.success ? { ok: true, tick: parsed.data } : { ok: false, reason: 'invalid_shape' }
}

function delay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms)
    signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true })
  })
}
