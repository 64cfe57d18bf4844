import { pairByName } from '../../schemas/pairs.ts'
import { ClientMessage, type ServerFrame, type StreamErrorCode } from '../../schemas/stream.ts'
import { pairCountOf, type PairFilter } from './pair-filter.ts'

export type AckReply = Extract<ServerFrame, { type: 'ack' }>
export type ErrorReply = Extract<ServerFrame, { type: 'error' }>

export type Rejection = { accepted: false; reply: ErrorReply }
export type MessageOutcome = { accepted: true; filter: PairFilter; reply: AckReply } | Rejection

const utf8 = new TextDecoder('utf-8', { fatal: true })

/** A subscribe naming every pair fits with room to spare; longer messages are refused (`malformed`). */
export const MAX_CLIENT_MESSAGE_BYTES = 4 * 1024

/**
 * Applies one client message to a connection's filter (spec 3.4, 6.2). Every message gets exactly
 * one reply; a rejected message leaves the filter as it was. `payload` is undefined for binary frames.
 */
export function applyClientMessage(filter: PairFilter, payload: ArrayBuffer | undefined): MessageOutcome {
  const message = parseMessage(payload)
  if ('accepted' in message) return message
  const { type, pairs } = message

  if (filter === null) {
    // an unfiltered connection already receives every asset; only a reconnect with ?pairs= narrows it
    return type === 'subscribe'
      ? { accepted: true, filter, reply: { type: 'ack', for: 'subscribe', pairCount: null } }
      : rejected('no_filter', 'this connection receives every asset; to narrow it, reconnect with ?pairs=')
  }

  if (pairs.length === 0) return rejected('invalid_pairs', 'pairs must list at least one pair symbol')
  // symbols or legacy spellings; the filter holds pair ids, so two spellings of one asset count once
  const unknown = pairs.filter((name) => !pairByName(name))
  if (unknown.length > 0) {
    return rejected('invalid_pairs', `unknown pair symbols: ${unknown.join(', ')}; symbols look like BTC-USD`)
  }
  const next = new Set(filter)
  for (const name of pairs) {
    const id = pairByName(name)!.id
    if (type === 'subscribe') next.add(id)
    else next.delete(id)
  }
  return { accepted: true, filter: next, reply: { type: 'ack', for: type, pairCount: pairCountOf(next) } }
}

function parseMessage(payload: ArrayBuffer | undefined): ClientMessage | Rejection {
  if (payload === undefined) return rejected('malformed', 'messages are JSON text frames')
  if (payload.byteLength > MAX_CLIENT_MESSAGE_BYTES) {
    return rejected(
      'malformed',
      `the message is ${payload.byteLength} bytes; client messages are at most ${MAX_CLIENT_MESSAGE_BYTES} bytes`,
    )
  }
  let value: unknown
  try {
    value = JSON.parse(utf8.decode(payload))
  } catch {
    return rejected('malformed', 'the message is not valid JSON')
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return rejected('malformed', 'the message must be a JSON object with a type')
  }
  const type = (value as { type?: unknown }).type
  if (typeof type !== 'string') return rejected('malformed', 'the message must have a string type')
  if (type !== 'subscribe' && type !== 'unsubscribe') {
    return rejected('unknown_type', `unknown message type "${type}"; use subscribe or unsubscribe`)
  }
  const message = ClientMessage.safeParse(value)
  return message.success ? message.data : rejected('malformed', `${type} takes exactly { type, pairs: [pair symbols] }`)
}

export function rejected(code: StreamErrorCode, message: string): Rejection {
  return { accepted: false, reply: { type: 'error', code, message } }
}
