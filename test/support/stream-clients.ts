import WebSocket from 'ws'
import { TOPIC_QUEUE_FRAMES } from '../../services/stream/delivery.ts'
import type { TestEdge } from './edge-harness.ts'
import { MessageLog } from './message-log.ts'
import { priceRow } from './price-rows.ts'
import { metricValue } from './metrics.ts'
import { EVENT_DEADLINE_MS, waitFor, withDeadline } from './wait.ts'

/**
 * SOL-USD rows one frame short of a whole write of uWebSockets.js (32 frames queued for a socket): published first on
 * an edge with a zero fan-out slice, they and the tick after them go out at once, and the ticks after that conflate.
 */
export const rowsShortOfAWholeWrite = () =>
  Array.from({ length: TOPIC_QUEUE_FRAMES - 1 }, (_, index) => priceRow('SOL-USD', { mid: 100 + index }))

/** A stream connection through the `ws` package that records every frame as parsed JSON. */
export interface TestStreamClient {
  socket: WebSocket
  messages: MessageLog<any>
  send(message: unknown): void
  /** resolves with the close code and reason once the server closes */
  closed: Promise<{ code: number; reason: string }>
}

export async function openStream(url: string, options: WebSocket.ClientOptions = {}): Promise<TestStreamClient> {
  const socket = new WebSocket(url, options)
  const messages = new MessageLog<any>()
  socket.on('message', (data) => messages.push(JSON.parse((data as Buffer).toString())))
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    socket.once('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  )
  await untilOpen(socket)
  return { socket, messages, send: (message) => socket.send(typeof message === 'string' ? message : JSON.stringify(message)), closed }
}

/** Resolves once the socket is open; rejects on its error, or after EVENT_DEADLINE_MS. */
export const untilOpen = (socket: WebSocket): Promise<void> =>
  withDeadline(
    new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve())
      socket.once('error', reject)
    }),
    EVENT_DEADLINE_MS,
    'the stream to open',
  )

/**
 * Publishes a batch at a time until the edge reports `count` lagging connections: a paused reader's
 * kernel buffers fill first, then the server's own buffer passes the limit. A batch may be asynchronous,
 * e.g. to let a reading client catch up before the next one.
 */
export async function publishUntilLagging(
  edge: TestEdge,
  publishBatch: () => void | Promise<void>,
  { count = 1, timeoutMs = EVENT_DEADLINE_MS }: { count?: number; timeoutMs?: number } = {},
): Promise<void> {
  await waitFor(
    async () => {
      await publishBatch()
      return (await metricValue(edge.metrics.streamLaggingConnections)) === count
    },
    { what: `${count} lagging connection(s)`, timeoutMs },
  )
}
