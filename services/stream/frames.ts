import { PAIRS } from '../../schemas/pairs.ts'
import type { AckReply, ErrorReply } from './client-messages.ts'
import { pairIdsOf, type PairFilter } from './pair-filter.ts'
import type { PublishedTicks } from './published-ticks.ts'

// Server frames (spec 6.1). Rows stay the bytes the ingestor encoded: frames are built around them by
// concatenation, never by re-encoding a row.

const TICK_HEAD = Buffer.from('{"type":"tick","seq":')
const TICK_DATA = Buffer.from(',"data":')
const CURSOR_FIELD = Buffer.from(',"cursor":"')
const CLOSING_BRACE = 0x7d
const QUOTE = 0x22

/**
 * Writes tick frames into one reusable buffer: the returned view is valid until the next write, which
 * is enough because uWebSockets.js copies a message when it is published or sent.
 */
export class TickFrameWriter {
  private scratch = Buffer.allocUnsafe(1024)

  /** the frame of a tick; with `cursor` (a connection that opted in) the cursor last */
  write(seq: number, row: Buffer, cursor?: string): Buffer {
    const length =
      TICK_HEAD.length + 20 + TICK_DATA.length + row.length + 1 + (cursor === undefined ? 0 : CURSOR_FIELD.length + cursor.length + 1)
    if (length > this.scratch.length) this.scratch = Buffer.allocUnsafe(length * 2)
    let offset = TICK_HEAD.copy(this.scratch, 0)
    offset += this.scratch.write(String(seq), offset, 'latin1')
    offset += TICK_DATA.copy(this.scratch, offset)
    offset += row.copy(this.scratch, offset)
    if (cursor !== undefined) {
      offset += CURSOR_FIELD.copy(this.scratch, offset)
      offset += this.scratch.write(cursor, offset, 'latin1')
      this.scratch[offset++] = QUOTE
    }
    this.scratch[offset++] = CLOSING_BRACE
    return this.scratch.subarray(0, offset)
  }
}

export const gapFrame = (dropped: number, cursor?: string): string =>
  cursor === undefined ? `{"type":"gap","dropped":${dropped}}` : `{"type":"gap","dropped":${dropped},"cursor":"${cursor}"}`

/** The first frame of a connection that asked to resume (`?from=`, `Last-Event-ID`). */
export const resumedFrame = (cursor: string | undefined): string =>
  cursor === undefined ? '{"type":"resumed","recovered":false}' : `{"type":"resumed","recovered":true,"cursor":"${cursor}"}`

export const replyFrame = (reply: AckReply | ErrorReply): string => JSON.stringify(reply)

/**
 * The first frame of a connection: `seq` holds the baseline of every pair the connection receives
 * (0 for a pair that has not ticked in this epoch), `data` the rows that exist, in pair-id order; `compact`
 * (a connection of compact frames) adds `ids`, the pair id of each row, which its ticks name the pair by;
 * with `cursor` (a connection that opted in) the cursor of the latest tick the snapshot accounts for, last.
 */
export function snapshotFrame(published: PublishedTicks, filter: PairFilter, cursor?: string, compact = false): Buffer {
  const baselines: string[] = []
  const rows: Buffer[] = []
  const ids: number[] = []
  for (const pairId of pairIdsOf(filter)) {
    baselines.push(`"${PAIRS[pairId]!.symbol}":${published.seq[pairId]}`)
    const row = published.rows[pairId]
    if (row) {
      rows.push(row, COMMA)
      ids.push(pairId)
    }
  }
  rows.pop()
  const idsField = compact ? `,"ids":[${ids.join(',')}]` : ''
  const tail =
    cursor === undefined && !compact ? SNAPSHOT_TAIL : Buffer.from(`]${idsField}${cursor === undefined ? '' : `,"cursor":"${cursor}"`}}`)
  return Buffer.concat([Buffer.from(`{"type":"snapshot","seq":{${baselines.join(',')}},"data":[`), ...rows, tail])
}

const COMMA = Buffer.from(',')
const SNAPSHOT_TAIL = Buffer.from(']}')
