import type { HttpResponse } from 'uWebSockets.js'

// Writing Server-Sent Events to uWebSockets.js responses, for every stream path that serves them.

/**
 * Comments keep a quiet response alive: uWebSockets.js closes an HTTP response nothing has been written to
 * for 10 s (services/http/native-uws.ts), and proxies close idle ones too.
 */
export const SSE_HEARTBEAT_MS = 5_000
export const HEARTBEAT_COMMENT = Buffer.from(':\n\n')
const EVENT_END = Buffer.from('\n\n')

/** One response that events are written to. */
export interface SseResponse {
  readonly res: HttpResponse
  /** bytes written since uWS last took a write whole: at least what it holds for the client */
  held: number
  /** false once the client went away or the response ended */
  open: boolean
}

/** One event: the frame as `data`, with `id` when given. */
export function sseEvent(type: string, id: string | undefined, frame: Buffer | string): Buffer {
  const head = id === undefined ? `event: ${type}\ndata: ` : `event: ${type}\nid: ${id}\ndata: `
  return Buffer.concat([Buffer.from(head), Buffer.from(frame), EVENT_END])
}

/** Writes a chunk, keeping `held`; false (nothing written) once the response is over. */
export function writeChunk(response: SseResponse, chunk: Buffer): boolean {
  if (!response.open) return false
  const { res } = response
  let whole = false
  res.cork(() => (whole = res.write(chunk)))
  response.held = whole ? 0 : response.held + chunk.length
  return true
}

/** Ends a response (shutdown): an EventSource comes back by itself. */
export function endResponse(response: SseResponse): void {
  response.open = false
  response.res.cork(() => response.res.end())
}

/** A heartbeat comment every SSE_HEARTBEAT_MS to the responses `quiet` lists at that moment. */
export function startSseHeartbeat(quiet: () => Iterable<SseResponse>): NodeJS.Timeout {
  const timer = setInterval(() => {
    for (const response of quiet()) writeChunk(response, HEARTBEAT_COMMENT)
  }, SSE_HEARTBEAT_MS)
  timer.unref()
  return timer
}
