import type { PublishedTicks } from './published-ticks.ts'

export interface FanOutOptions {
  published: PublishedTicks
  /** how long fan-out may send in one turn of the event loop; the rest of that turn's ticks conflate */
  sliceMs: number
  /**
   * how many frames queued for a socket uWebSockets.js writes at once (it writes what is left at the end of each
   * turn): past the slice, a turn sends on in order until a connection taking every pair has whole writes queued
   */
  framesPerWrite: number
  /**
   * sends one tick to every connection that wants the pair; `droppedBefore` ticks of it were conflated away
   * (`conflated`: the connections that receive every pair have been told in `announceConflation`) or never
   * reached this edge (it was off the bus)
   */
  deliver(tick: Arrival, droppedBefore: number, conflated: boolean): void
  /**
   * a tick has left the fan-out, in position order: delivered and recorded, or superseded by a later tick of
   * its pair (conflated away from the live connections, yet a resume after an earlier cursor replays it)
   */
  sent(tick: Arrival): void
  /** conflated ticks are about to go out, `dropped` of them having been superseded across pairs */
  announceConflation(dropped: number): void
  /**
   * the ticks sent together have all been delivered: a read's (those of it sent before the slice ran out, after the
   * conflated latest of the turn before when it left some), or, when no read followed, that conflated latest alone;
   * told within the same turn of the event loop as the deliveries
   */
  sentTogether(): void
}

/** A numbered tick of a listed pair. */
export interface Arrival {
  pairId: number
  seq: number
  position: number
  row: Buffer
}

export interface FanOut {
  /** every numbered tick, in position order */
  onTick(tick: Arrival): void
  stop(): void
}

/**
 * Sends every numbered tick on (a tick this edge has already sent is ignored). The ticks of one read from the bus go
 * out together once it is parsed, in arrival order: every frame published before uWebSockets.js's
 * end-of-turn write leaves in one send per socket, where frames published on either side of it would cost
 * each socket two. Once sending has taken `sliceMs` in a turn of the event loop, the process is falling
 * behind and ticks conflate to the latest row per pair, preceded by a gap for what was superseded: the turn
 * sends on in order only until its last write is full, and the rest of its ticks wait, at no cost, for the
 * next turn, where they go out first; the latest ticks go out in position order, so a cursor taken from any
 * frame is a place to resume from. Taking a tick off the bus stays cheap however far behind the process is, so
 * latency stays bounded instead of piling up in the bus client and the event loop.
 *
 * uWS writes what is queued for a socket `framesPerWrite` frames at a time, what is left at the end of each turn
 * (just before `setImmediate`'s callbacks), and again at the start of the next (before the poll for reads). A
 * falling-behind turn that stops on a whole write, and conflated ticks published ahead of the next turn's first
 * read instead of from `setImmediate`, leave no short write between full ones. When no read comes in the next
 * turn, the waiting ticks go out at its end.
 */
export function createFanOut(options: FanOutOptions): FanOut {
  const { published } = options
  const received = Float64Array.from(published.seq)
  // the ticks of the read being parsed, in arrival order
  let arrivals: Arrival[] = []
  // conflated ticks: every one waiting, in arrival (position) order, and the latest per pair
  let waiting: Arrival[] = []
  const latest = new Array<Arrival | undefined>(received.length)
  let turnStartedAt: number | undefined
  // frames queued this turn for a connection taking every pair: each tick's, a gap before one the edge never
  // received, a gap before conflated ticks
  let framesThisTurn = 0
  let stopped = false

  const send = (tick: Arrival, conflated = false) => {
    const { pairId, seq, row, position } = tick
    const droppedBefore = seq - published.seq[pairId]! - 1
    options.deliver(tick, droppedBefore, conflated)
    framesThisTurn += droppedBefore > 0 && !conflated ? 2 : 1
    // recorded after delivery, so a connection cut off during it still counts this tick as missed
    published.record(pairId, seq, row, position)
    options.sent(tick)
  }
  /** while the turn's slice lasts, and past it until the last write is full */
  const maySend = () => performance.now() - turnStartedAt! < options.sliceMs || framesThisTurn % options.framesPerWrite !== 0

  /**
   * Sends a read's ticks in order while it may (a turn's first tick always), after the ticks a turn before left
   * waiting; the rest wait for the next turn.
   */
  function flush() {
    const batch = arrivals
    arrivals = []
    if (stopped) return
    let next = 0
    if (turnStartedAt === undefined) {
      turnStartedAt = performance.now()
      framesThisTurn = 0
      setImmediate(endOfTurn)
      // ticks waiting when a turn starts are an ended turn's: they go out ahead of this read
      if (waiting.length > 0) sendWaiting()
      send(batch[next++]!)
    } else if (!maySend()) {
      for (const arrival of batch) wait(arrival)
      return
    }
    while (next < batch.length && maySend()) send(batch[next++]!)
    for (; next < batch.length; next++) wait(batch[next]!)
    options.sentTogether()
  }

  function endOfTurn() {
    turnStartedAt = undefined
    if (stopped || waiting.length === 0) return
    setImmediate(sendLeftWaiting)
  }

  /** At the end of the turn after theirs: the waiting ticks no read took along (a read's turn has started by then). */
  function sendLeftWaiting() {
    if (stopped || turnStartedAt !== undefined || waiting.length === 0) return
    sendWaiting()
    options.sentTogether()
  }

  function wait(arrival: Arrival) {
    waiting.push(arrival)
    latest[arrival.pairId] = arrival
  }

  /** One frame per waiting pair, after one gap for everything superseded; the superseded ticks go to `sent` only. */
  function sendWaiting() {
    const batch = waiting
    waiting = []
    let dropped = 0
    for (const arrival of batch) if (latest[arrival.pairId] === arrival) dropped += arrival.seq - published.seq[arrival.pairId]! - 1
    if (dropped > 0) {
      options.announceConflation(dropped)
      framesThisTurn++
    }
    for (const arrival of batch) {
      if (latest[arrival.pairId] !== arrival) options.sent(arrival)
      else {
        send(arrival, true)
        latest[arrival.pairId] = undefined
      }
    }
  }

  return {
    onTick(tick) {
      if (stopped || tick.seq <= received[tick.pairId]!) return
      received[tick.pairId] = tick.seq
      if (arrivals.length === 0) queueMicrotask(flush)
      arrivals.push(tick)
    },
    stop() {
      stopped = true
    },
  }
}
