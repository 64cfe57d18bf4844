import { PAIRS } from '../../schemas/pairs.ts'
import type { PriceRow } from '../../schemas/price.ts'
import type { PublishedTicks } from './published-ticks.ts'

// Compact frames (`?format=compact`). A row's static part (every field but the prices, flags and timestamp:
// feed id, symbols, schedule) reaches a connection once, in its snapshot or in a `static` frame, and again
// only when it changes; a tick carries the rest as a positional array:
//   {"type":"t","seq":N,"p":<pair id>,"d":[bid,mid,ask,flags,secondsToToggleIsDayTradingClosed,timestampSeconds]}
// where flags is isMarketOpen (1) plus isDayTradingClosed (2). The client rebuilds the row from the two.

/** A row split in two: its static part as JSON text, and the values of a compact tick's `d` as JSON text without brackets. */
export interface RowParts {
  statics: string
  dynamic: string
}

/**
 * Splits the bytes of a row (the ingestor's, so a valid price row; throws on what is not a JSON object). A row in
 * the ingestor's layout (its keys in the schema's order, as JSON.stringify writes them) is cut by its text: a
 * resume replays thousands of rows per connection, and parsing each costs about three times as much. Any other row is
 * parsed, and its numbers written back as JavaScript writes them, which is the ingestor's text too.
 */
export function splitRow(row: Buffer): RowParts {
  const text = row.toString('latin1')
  return (isAscii(text) && cutByText(text)) || splitParsed(row)
}

/** The keys of a row from `bid` to the static `schedule`, in the order the ingestor writes them. */
const DYNAMIC_KEYS = [
  ',"bid":',
  ',"mid":',
  ',"ask":',
  ',"isMarketOpen":',
  ',"isDayTradingClosed":',
  ',"secondsToToggleIsDayTradingClosed":',
  ',"timestampSeconds":',
  ',"schedule":',
]
const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:e[+-]\d+)?$/
const BOOLEAN = /^(?:true|false)$/
const VALUE_PATTERNS = [NUMBER, NUMBER, NUMBER, BOOLEAN, BOOLEAN, NUMBER, NUMBER]
// eslint-disable-next-line no-control-regex
const NON_ASCII = /[^\x00-\x7f]/

const isAscii = (text: string) => !NON_ASCII.test(text)

/**
 * The parts of a row laid out as the ingestor writes it, or undefined: the keys before `bid` hold no object
 * (so the first `,"bid":` is the row's own: a quote inside a string is escaped), the dynamic keys follow in
 * order with plain values, and `schedule` ends the row.
 */
export function cutByText(text: string): RowParts | undefined {
  let at = text.indexOf(DYNAMIC_KEYS[0]!)
  if (!text.startsWith('{"feed_id":') || at < 0 || text.lastIndexOf('{', at) !== 0 || !text.endsWith('}')) return undefined
  const values: string[] = []
  for (let index = 0; index < VALUE_PATTERNS.length; index++) {
    const start = at + DYNAMIC_KEYS[index]!.length
    const next = text.indexOf(DYNAMIC_KEYS[index + 1]!, start)
    if (next < 0) return undefined
    const value = text.slice(start, next)
    if (!VALUE_PATTERNS[index]!.test(value)) return undefined
    values.push(value)
    at = next
  }
  const [bid, mid, ask, isMarketOpen, isDayTradingClosed, secondsToToggle, timestampSeconds] = values
  const flags = (isMarketOpen === 'true' ? 1 : 0) + (isDayTradingClosed === 'true' ? 2 : 0)
  return {
    statics: text.slice(0, text.indexOf(DYNAMIC_KEYS[0]!)) + text.slice(at),
    dynamic: `${bid},${mid},${ask},${flags},${secondsToToggle},${timestampSeconds}`,
  }
}

function splitParsed(row: Buffer): RowParts {
  const { bid, mid, ask, isMarketOpen, isDayTradingClosed, secondsToToggleIsDayTradingClosed, timestampSeconds, ...statics } = JSON.parse(
    row.toString(),
  ) as PriceRow
  const flags = (isMarketOpen ? 1 : 0) + (isDayTradingClosed ? 2 : 0)
  return {
    statics: JSON.stringify(statics),
    dynamic: `${bid},${mid},${ask},${flags},${secondsToToggleIsDayTradingClosed},${timestampSeconds}`,
  }
}

/** What stands for a row that is not a price row when its pair has no earlier parts. */
const NO_PARTS: RowParts = { statics: '{}', dynamic: 'null,null,null,0,-1,0' }

/**
 * splitRow, or else the pair's previous parts (`instead`): a row that is not a price row (never the ingestor's)
 * repeats the pair's previous values rather than missing its tick, which would break the seq arithmetic.
 */
export function splitRowOr(row: Buffer, instead: RowParts | undefined, malformed: (error: unknown) => void): RowParts {
  try {
    return splitRow(row)
  } catch (error) {
    malformed(error)
    return instead ?? NO_PARTS
  }
}

export const compactTickFrame = (seq: number, pairId: number, dynamic: string, cursor?: string): string =>
  cursor === undefined
    ? `{"type":"t","seq":${seq},"p":${pairId},"d":[${dynamic}]}`
    : `{"type":"t","seq":${seq},"p":${pairId},"d":[${dynamic}],"cursor":"${cursor}"}`

/** A pair's static part: before its first compact tick on a connection, and whenever it changes. */
export const staticFrame = (pairId: number, statics: string): string => `{"type":"static","p":${pairId},"data":${statics}}`

/** A tick about to be delivered, in compact form: its static frame when the part changed, and its `d`. */
export interface CompactTick {
  staticFrame: string | undefined
  dynamic: string
}

/**
 * Splits each delivered tick's row once, however many deliveries (WebSocket, Server-Sent Events) ask for it,
 * and tells whether its static part differs from the pair's published row, which every compact connection
 * holds. Changes are numbered (`changes`, `changedAt`), so that a connection that lagged can be sent the
 * static parts that changed meanwhile.
 */
export class CompactTicks {
  /** per pair, the last row split and its parts: the published row, almost always */
  private readonly splitRows = new Array<Buffer | undefined>(PAIRS.length)
  private readonly parts = new Array<RowParts | undefined>(PAIRS.length)
  private lastTick: object | undefined
  private lastCompact: CompactTick | undefined
  /** static parts changed so far */
  changes = 0
  /** per pair, `changes` when its static part last changed (0: not since this edge started) */
  readonly changedAt = new Float64Array(PAIRS.length)

  /** `malformed` hears of a row that is not a price row (its pair's previous parts stand in for it), with the row */
  constructor(
    private readonly published: PublishedTicks,
    private readonly malformed: (pairId: number, error: unknown, row: Buffer) => void = () => {},
  ) {}

  /** A tick about to be delivered (published still holds the pair's previous row). */
  of(tick: { pairId: number; row: Buffer }): CompactTick {
    if (tick === this.lastTick) return this.lastCompact!
    const previous = this.published.rows[tick.pairId]
    const before = previous && this.partsOf(tick.pairId, previous).statics
    const { statics, dynamic } = this.partsOf(tick.pairId, tick.row)
    const changed = statics !== before
    if (changed) this.changedAt[tick.pairId] = ++this.changes
    this.lastTick = tick
    this.lastCompact = { staticFrame: changed ? staticFrame(tick.pairId, statics) : undefined, dynamic }
    return this.lastCompact
  }

  /** The static frame of a pair's published row; undefined when it has none. */
  publishedStatic(pairId: number): string | undefined {
    const row = this.published.rows[pairId]
    return row && staticFrame(pairId, this.partsOf(pairId, row).statics)
  }

  /** The static frames of the pairs (in pair-id order) whose static part changed after change number `after`. */
  changedSince(after: number, pairIds: Iterable<number>): string[] {
    const frames: string[] = []
    for (const pairId of pairIds) {
      const frame = this.changedAt[pairId]! > after ? this.publishedStatic(pairId) : undefined
      if (frame) frames.push(frame)
    }
    return frames
  }

  private partsOf(pairId: number, row: Buffer): RowParts {
    if (this.splitRows[pairId] !== row) {
      this.splitRows[pairId] = row
      this.parts[pairId] = splitRowOr(row, this.parts[pairId], (error) => this.malformed(pairId, error, row))
    }
    return this.parts[pairId]!
  }
}
