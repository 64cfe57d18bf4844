import { pairBySymbol } from '../../schemas/pairs.ts'
import { TickFrameWriter } from './frames.ts'
import type { PublishedTicks } from './published-ticks.ts'

export interface FanOutOptions {
  published: PublishedTicks
  /** how long fan-out may hold the event loop in one turn; later ticks wait for the end of the turn */
  sliceMs: number
  /** sends one tick frame to every connection that wants the pair; `droppedBefore` ticks of it were conflated away */
  deliver(pairId: number, frame: Buffer, droppedBefore: number): void
  /** waiting ticks are about to go out, `dropped` of them having been conflated away across pairs */
  announceConflation(dropped: number): void
}

export interface FanOut {
  /** every row update, in arrival order per pair */
  onRow(pair: string, row: Buffer): void
  stop(): void
}

/**
 * Numbers every tick (`seq` per asset, process-wide) and sends it on. While fan-out keeps up, each tick
 * goes out as it arrives. Once fan-out has held one turn of the event loop for `sliceMs`, later ticks of
 * that turn wait, keeping only the latest row per pair, and go out together at the end of the turn: at
 * most one frame per pair, preceded by a gap for what was superseded. Taking a tick off the bus stays
 * cheap however far behind the process is, so latency stays bounded instead of piling up in the bus
 * client and the event loop.
 */
export function createFanOut(options: FanOutOptions): FanOut {
  const { published } = options
  const received = Float64Array.from(published.seq)
  const waiting = new Array<Buffer | undefined>(received.length)
  const waitingOrder: number[] = []
  const frames = new TickFrameWriter()
  let sliceStartedAt: number | undefined
  let stopped = false

  const send = (pairId: number, row: Buffer) => {
    const seq = received[pairId]!
    options.deliver(pairId, frames.write(seq, row), seq - published.seq[pairId]! - 1)
    // recorded after delivery, so a connection cut off during it still counts this tick as missed
    published.record(pairId, seq, row)
  }

  /** True while this turn's slice has time left; the first tick of a turn opens the slice. */
  const inSlice = () => {
    const now = performance.now()
    if (sliceStartedAt !== undefined) return now - sliceStartedAt < options.sliceMs
    sliceStartedAt = now
    setImmediate(endOfTurn)
    return true
  }

  /** Sends every waiting pair's latest row, after one gap for all that was conflated. */
  function endOfTurn() {
    sliceStartedAt = undefined
    if (stopped) return
    const batch = waitingOrder.splice(0)
    let dropped = 0
    for (const pairId of batch) dropped += received[pairId]! - published.seq[pairId]! - 1
    if (dropped > 0) options.announceConflation(dropped)
    for (const pairId of batch) {
      const row = waiting[pairId]!
      waiting[pairId] = undefined
      send(pairId, row)
    }
  }

  return {
    onRow(pair, row) {
      const pairId = pairBySymbol(pair)?.id
      if (pairId === undefined || stopped) return
      received[pairId]!++
      if (waiting[pairId] !== undefined) {
        waiting[pairId] = row
        return
      }
      if (waitingOrder.length === 0 && inSlice()) return send(pairId, row)
      // the slice that made this tick wait ends with this turn, and its end sends what waits
      waiting[pairId] = row
      waitingOrder.push(pairId)
    },
    stop() {
      stopped = true
    },
  }
}
