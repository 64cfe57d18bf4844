import { createParser } from 'eventsource-parser'
import WebSocket from 'ws'
import type { PriceBus } from '../../bus/price-bus.ts'
import { MessageLog } from './message-log.ts'
import { priceRow, rowBytes } from './price-rows.ts'
import { untilOpen } from './stream-clients.ts'
import { EVENT_DEADLINE_MS, withDeadline } from './wait.ts'

/** A frame as received (its text, byte for byte) and parsed. */
export interface RawFrame {
  text: string
  json: any
}

/** A stream connection through `ws` that keeps every frame's text as well as its parsed form. */
export interface RawFrameClient {
  socket: WebSocket
  frames: MessageLog<RawFrame>
  close(): Promise<void>
}

export async function openRawFrames(url: string, options: WebSocket.ClientOptions = {}): Promise<RawFrameClient> {
  const socket = new WebSocket(url, options)
  const frames = new MessageLog<RawFrame>()
  socket.on('message', (data) => {
    const text = (data as Buffer).toString()
    frames.push({ text, json: JSON.parse(text) })
  })
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()))
  await untilOpen(socket)
  return {
    socket,
    frames,
    async close() {
      socket.close()
      await withDeadline(closed, EVENT_DEADLINE_MS, 'the stream to close')
    },
  }
}

/** The pairs the resume tests publish, in turn; they filter on the first two. */
export const RESUME_PAIRS = ['BTC-USD', 'ETH-USD', 'XAU-USD']
export const RESUME_FILTER = 'pairs=BTC-USD,ETH-USD'
/** a busy machine can spend longer than the fan-out slice on a burst and conflate it: not what these tests are about */
export const NO_CONFLATION = { STREAM_FANOUT_SLICE_MS: '60000' }

/** Publishes `count` ticks on the bus, over RESUME_PAIRS in turn, each with a new mid. */
export function roundRobinPublisher(bus: PriceBus): (count: number) => void {
  let mid = 1000
  return (count) => {
    for (let index = 0; index < count; index++) {
      const pair = RESUME_PAIRS[index % RESUME_PAIRS.length]!
      bus.publishTick(pair, rowBytes(priceRow(pair, { mid: mid++ })))
    }
  }
}

/** A tick frame: full rows' `tick`, or compact frames' `t`. */
export const isTickFrame = (frame: RawFrame): boolean => frame.json.type === 'tick' || frame.json.type === 't'

/** The tick frames' texts after the frame that carries `cursor`. */
export function ticksAfterCursor(frames: readonly RawFrame[], cursor: string): string[] {
  const at = frames.findIndex((frame) => frame.json.cursor === cursor)
  if (at === -1) throw new Error(`no frame with cursor ${cursor}`)
  return frames
    .slice(at + 1)
    .filter(isTickFrame)
    .map((frame) => frame.text)
}

/** Waits until `client` has `count` tick frames after index `from`. */
export const untilTicks = (frames: MessageLog<RawFrame>, count: number, from = 0, timeoutMs = EVENT_DEADLINE_MS) =>
  frames.until(() => (frames.items.slice(from).filter(isTickFrame).length >= count ? true : undefined), `${count} ticks`, timeoutMs)

/** One Server-Sent Event as received. */
export interface ReceivedEvent {
  event: string | undefined
  id: string | undefined
  data: string
}

/** An event-stream response read as it arrives, through fetch and eventsource-parser. */
export interface EventStreamClient {
  response: Response
  events: MessageLog<ReceivedEvent>
  /** resolves once the server has ended the response */
  ended: Promise<void>
  abort(): void
}

export async function openEventStream(url: string, headers: Record<string, string> = {}): Promise<EventStreamClient> {
  const controller = new AbortController()
  const response = await withDeadline(
    fetch(url, { headers: { accept: 'text/event-stream', ...headers }, signal: controller.signal }),
    EVENT_DEADLINE_MS,
    'the event stream to answer',
  )
  const events = new MessageLog<ReceivedEvent>()
  const parser = createParser({ onEvent: ({ event, id, data }) => events.push({ event, id, data }) })
  const ended = (async () => {
    if (!response.body) return
    const decoder = new TextDecoder()
    const reader = response.body.getReader()
    try {
      for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read())
        parser.feed(decoder.decode(chunk.value, { stream: true }))
    } catch {
      // aborted by the test
    }
  })()
  return { response, events, ended, abort: () => controller.abort() }
}
