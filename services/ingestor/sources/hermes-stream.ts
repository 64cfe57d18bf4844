// One connection to Hermes's server-sent-events stream: the request, its refusal as a HermesRefusal, the
// events parsed as they arrive, and an idle deadline (Hermes sends a keep-alive comment after 15 s of quiet).

import { createParser, type EventSourceMessage } from 'eventsource-parser'
import { hermesRefusal } from './hermes-refusal.ts'

export interface HermesStreamOptions {
  url: URL
  headers: Record<string, string>
  /** the source stopping */
  signal: AbortSignal
  /** a connection with no byte for this long is ended (rejected) */
  idleTimeoutMs: number
  /** fits upstream text for a log line */
  safe: (text: string) => string
  /** Hermes accepted the request: the stream is open */
  onConnected(): void
  onEvent(event: EventSourceMessage): void
}

/** Resolves when Hermes ends the stream; rejects when the request fails, is refused, goes idle or is aborted. */
export async function readHermesStream(options: HermesStreamOptions): Promise<void> {
  const idle = new AbortController()
  let idleTimer: NodeJS.Timeout | undefined
  const touch = () => {
    clearTimeout(idleTimer)
    idleTimer = setTimeout(() => idle.abort(new Error(`no data or keep-alive for ${options.idleTimeoutMs} ms`)), options.idleTimeoutMs)
  }
  touch()
  try {
    const response = await fetch(options.url, { signal: AbortSignal.any([options.signal, idle.signal]), headers: options.headers })
    if (!response.ok) {
      const body = await response.text().catch(() => '')
      throw hermesRefusal('stream', response.status, response.headers, options.safe(body))
    }
    if (!response.body) throw new Error('upstream answered without a body')
    options.onConnected()
    const parser = createParser({ onEvent: options.onEvent })
    const decoder = new TextDecoder()
    const reader = response.body.getReader()
    try {
      for (;;) {
        const { done, value } = await reader.read()
        if (done) return
        touch()
        parser.feed(decoder.decode(value, { stream: true }))
      }
    } finally {
      // Closes the connection if reading stopped early (a handler threw); a no-op once the stream has ended.
      await reader.cancel().catch(() => undefined)
    }
  } finally {
    clearTimeout(idleTimer)
  }
}
