// The load test's reader of an event-stream response (`GET /v1/prices/stream` with Accept: text/event-stream):
// undoes the chunked transfer coding when the response has it, and hands over each event's `id` and `data`
// (the stream's frame, the same JSON as on the WebSocket). Comments (heartbeats) are skipped.

const CRLF = Buffer.from('\r\n')
const EVENT_END = Buffer.from('\n\n')

export type EventHandler = (id: string | undefined, data: Buffer) => void

export class EventStreamReader {
  /** bytes of the chunked coding not yet decoded */
  private coded = Buffer.alloc(0)
  /** decoded bytes not yet a whole event */
  private events = Buffer.alloc(0)

  constructor(private readonly chunked: boolean) {}

  push(chunk: Buffer, onEvent: EventHandler): void {
    this.events = Buffer.concat([this.events, this.chunked ? this.decode(chunk) : chunk])
    let from = 0
    for (let end = this.events.indexOf(EVENT_END); end >= 0; end = this.events.indexOf(EVENT_END, from)) {
      readEvent(this.events.subarray(from, end), onEvent)
      from = end + EVENT_END.length
    }
    this.events = this.events.subarray(from)
  }

  private decode(chunk: Buffer): Buffer {
    this.coded = Buffer.concat([this.coded, chunk])
    const bodies: Buffer[] = []
    let at = 0
    for (;;) {
      const lineEnd = this.coded.indexOf(CRLF, at)
      if (lineEnd < 0) break
      const size = Number.parseInt(this.coded.toString('latin1', at, lineEnd), 16)
      const bodyEnd = lineEnd + CRLF.length + size
      if (bodyEnd + CRLF.length > this.coded.length) break
      bodies.push(this.coded.subarray(lineEnd + CRLF.length, bodyEnd))
      at = bodyEnd + CRLF.length
    }
    this.coded = this.coded.subarray(at)
    return Buffer.concat(bodies)
  }
}

function readEvent(event: Buffer, onEvent: EventHandler): void {
  let id: string | undefined
  let data: Buffer | undefined
  let from = 0
  while (from < event.length) {
    let end = event.indexOf(0x0a, from)
    if (end < 0) end = event.length
    const line = event.subarray(from, end)
    if (line.subarray(0, 4).toString('latin1') === 'id: ') id = line.toString('latin1', 4)
    else if (line.subarray(0, 6).toString('latin1') === 'data: ') data = line.subarray(6)
    from = end + 1
  }
  if (data) onEvent(id, data)
}

/** The bytes of a request for the stream as events, resuming after `lastEventId` when given. */
export function eventStreamRequest(url: URL, lastEventId: string | undefined): string {
  return [
    `GET ${url.pathname}${url.search} HTTP/1.1`,
    `Host: ${url.host}`,
    'Accept: text/event-stream',
    ...(lastEventId === undefined ? [] : [`Last-Event-ID: ${lastEventId}`]),
    '',
    '',
  ].join('\r\n')
}
