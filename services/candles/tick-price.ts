import { z } from 'zod'

/** The two fields of a price row that candles need. */
// z.object keeps only these two of the row's fields
const TickPrice = z.object({
  mid: z.number().positive().finite(),
  timestampSeconds: z.number().int().nonnegative(),
})
export type TickPrice = z.infer<typeof TickPrice>

const MID_KEY = Buffer.from(',"mid":')
const TIMESTAMP_KEY = Buffer.from(',"timestampSeconds":')
const [OPEN_BRACE, CLOSE_BRACE, COMMA] = [0x7b, 0x7d, 0x2c]
/** a JSON number, whole: what JSON.parse takes as one */
const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/

/**
 * A row's mid and timestamp, read without parsing the row: this runs for every tick. In JSON the bytes
 * `,"mid":` can only be a key (a quote inside a string is escaped), and with no `{` before it the key is
 * the row's own, not a nested object's. The rest of the row is not checked here (the ingestor encoded it).
 * A row laid out otherwise, or with a value that is not a plain number, is parsed whole and checked by the
 * schema; undefined when it is not a usable price.
 */
export function tickPriceOf(row: Uint8Array): TickPrice | undefined {
  // a process's candle writer and its live candles are handed the same row, one after the other
  if (row === lastRow) return lastPrice
  lastRow = row
  lastPrice = readTickPrice(row)
  return lastPrice
}

let lastRow: Uint8Array | undefined
let lastPrice: TickPrice | undefined

function readTickPrice(row: Uint8Array): TickPrice | undefined {
  const bytes = Buffer.isBuffer(row) ? row : Buffer.from(row.buffer, row.byteOffset, row.byteLength)
  const mid = topLevelNumber(bytes, MID_KEY)
  const timestampSeconds = topLevelNumber(bytes, TIMESTAMP_KEY)
  if (mid === undefined || timestampSeconds === undefined) return parsedWhole(bytes)
  const valid = mid > 0 && Number.isFinite(mid) && Number.isSafeInteger(timestampSeconds) && timestampSeconds >= 0
  return valid ? { mid, timestampSeconds } : undefined
}

function topLevelNumber(bytes: Buffer, key: Buffer): number | undefined {
  if (bytes[0] !== OPEN_BRACE || bytes[bytes.length - 1] !== CLOSE_BRACE) return undefined
  const at = bytes.indexOf(key)
  if (at < 0) return undefined
  const nested = bytes.indexOf(OPEN_BRACE, 1)
  if (nested >= 0 && nested < at) return undefined
  const start = at + key.length
  let end = start
  while (end < bytes.length && bytes[end] !== COMMA && bytes[end] !== CLOSE_BRACE) end++
  const text = bytes.toString('latin1', start, end)
  return JSON_NUMBER.test(text) ? Number(text) : undefined
}

function parsedWhole(bytes: Buffer): TickPrice | undefined {
  try {
    const parsed = TickPrice.safeParse(JSON.parse(bytes.toString()))
    return parsed.success ? parsed.data : undefined
  } catch {
    return undefined
  }
}
