import { pairBySymbol } from '../../schemas/pairs.ts'
import { TickFrameWriter } from './frames.ts'
import type { PublishedTicks } from './published-ticks.ts'

export interface FanOutOptions {
  published: PublishedTicks
  /** how long fan-out may send in one turn of the event loop; the rest of that turn's ticks conflate */
  sliceMs: number
  /** sends one tick frame to every connection that wants the pair; `droppedBefore` ticks of it were conflated away */
  deliver(pairId: number, frame: Buffer, droppedBefore: number): void
  /** conflated ticks are about to go out, `dropped` of them having been superseded across pairs */
  announceConflation(dropped: number): void
}

interface Arrival {
  pairId: number
  seq: number
  row: Buffer
}

export interface FanOut {
  /** every row update, in arrival order per pair */
  onRow(pair: string, row: Buffer): void
  stop(): void
}

/**
 * Numbers every tick (`seq` per asset, process-wide) and sends it on. The ticks of one read from the bus go
 * out together once it is parsed, in arrival order: every frame published before uWebSockets.js's
 * end-of-turn write leaves in one send per socket, where frames published on either side of it would cost
 * each socket two. Once sending has taken `sliceMs` in a turn of the event loop, the process is falling
 * behind and ticks conflate to the latest row per pair, preceded by a gap for what was superseded: the rest
 * of the read being sent goes out so at once, and later reads of that turn wait, at no cost, for its end.
 * Taking a tick off the bus stays cheap however far behind the process is, so latency stays bounded
 * instead of piling up in the bus client and the event loop.
 */
export function createFanOut(options: FanOutOptions): FanOut {
  const { published } = options
  const received = Float64Array.from(published.seq)
  // the ticks of the read being parsed, in arrival order
  let arrivals: Arrival[] = []
  // conflated ticks: the latest per pair, and the pairs in the order they first waited
  const latest = new Array<Arrival | undefined>(received.length)
  const waitingOrder: number[] = []
  const frames = new TickFrameWriter()
  let turnStartedAt: number | undefined
  let stopped = false

  const send = ({ pairId, seq, row }: Arrival) => {
    options.deliver(pairId, frames.write(seq, row), seq - published.seq[pairId]! - 1)
    // recorded after delivery, so a connection cut off during it still counts this tick as missed
    published.record(pairId, seq, row)
  }
  const inSlice = () => performance.now() - turnStartedAt! < options.sliceMs

  /** Sends a read's ticks in order while the turn's slice lasts (a turn's first tick always), the rest conflated. */
  function flush() {
    const batch = arrivals
    arrivals = []
    if (stopped) return
    let next = 0
    if (turnStartedAt === undefined) {
      turnStartedAt = performance.now()
      setImmediate(endOfTurn)
      send(batch[next++]!)
    } else if (!inSlice()) {
      // an earlier read spent this turn's slice: this one waits for the end of the turn
      for (const arrival of batch) wait(arrival)
      return
    }
    while (next < batch.length && inSlice()) send(batch[next++]!)
    if (next === batch.length) return
    for (; next < batch.length; next++) wait(batch[next]!)
    sendWaiting()
  }

  function endOfTurn() {
    turnStartedAt = undefined
    if (!stopped) sendWaiting()
  }

  function wait(arrival: Arrival) {
    if (latest[arrival.pairId] === undefined) waitingOrder.push(arrival.pairId)
    latest[arrival.pairId] = arrival
  }

  /** One frame per waiting pair, after one gap for everything superseded. */
  function sendWaiting() {
    const order = waitingOrder.splice(0)
    let dropped = 0
    for (const pairId of order) dropped += latest[pairId]!.seq - published.seq[pairId]! - 1
    if (dropped > 0) options.announceConflation(dropped)
    for (const pairId of order) {
      send(latest[pairId]!)
      latest[pairId] = undefined
    }
  }

  return {
    onRow(pair, row) {
      const pairId = pairBySymbol(pair)?.id
      if (pairId === undefined || stopped) return
      if (arrivals.length === 0) queueMicrotask(flush)
      arrivals.push({ pairId, seq: ++received[pairId]!, row })
    },
    stop() {
      stopped = true
    },
  }
}
