// A numbered tick's two numbers read straight from its message's header bytes: its position (`Nats-Sequence`,
// set by the tick stream's republish) and its per-pair seq (`Price-Seq`, set by the publisher).
// nats.js decodes every header of a message into a Map on first access, canonicalising each key one character
// at a time; a republished tick carries six headers (the stream's five and the publisher's one), and decoding
// them was about 40 % of what an edge allocated per tick, the garbage whose collection pauses it.
import type { Msg } from '@nats-io/transport-node'

/**
 * nats.js's message (MsgImpl, @nats-io/nats-core lib/msg.ts) keeps the bytes it read: the header block
 * (`NATS/1.0\r\nKey: value\r\n...\r\n\r\n`) is the first `_msg.hdr` bytes of `_rdata` (`hdr` is -1 without
 * headers), as its own `headers` getter reads them.
 */
interface MessageBytes {
  _rdata: Uint8Array
  _msg: { hdr: number }
}

/** The message's bytes, headers first, and the length of its header block; undefined when nats.js keeps them otherwise. */
export function messageBytes(message: Msg): { bytes: Buffer; headerLength: number } | undefined {
  const { _rdata: bytes, _msg: parsed } = message as Partial<MessageBytes>
  if (!(bytes instanceof Uint8Array) || typeof parsed?.hdr !== 'number') return undefined
  return {
    bytes: Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
    headerLength: Math.max(parsed.hdr, 0),
  }
}

/** A reader of one header's value as a positive whole number, from the header bytes or, failing them, the decoded headers. */
export function headerNumber(name: string): (message: Msg) => number | undefined {
  // a line of the block starts after CR LF: matching the CR LF too keeps a name from matching inside another's
  const key = Buffer.from(`\r\n${name}:`, 'latin1')
  return (message) => {
    const raw = messageBytes(message)
    if (raw === undefined) return positiveWhole(message.headers?.get(name))
    const { bytes, headerLength } = raw
    const at = headerLength > 0 ? bytes.indexOf(key) : -1
    if (at < 0 || at >= headerLength) return undefined
    let index = at + key.length
    while (bytes[index] === 0x20) index++
    let value = 0
    const start = index
    for (let digit = bytes[index]! - 0x30; digit >= 0 && digit <= 9; digit = bytes[++index]! - 0x30) value = value * 10 + digit
    // digits up to the line's end, nothing else: a value nats.js would not read as a number is not one here either
    return index > start && bytes[index] === 0x0d && Number.isSafeInteger(value) && value > 0 ? value : undefined
  }
}

/** A header's value as a positive whole number, as a decoded header gives it; undefined when it is none. */
export function positiveWhole(value: string | undefined): number | undefined {
  if (!value) return undefined
  const number = Number(value)
  return Number.isSafeInteger(number) && number > 0 ? number : undefined
}
