// HTTP/1.1 exchanges on a raw TCP socket, for requests ordinary clients refuse to send: bad escapes, null
// bytes, duplicate Content-Length, broken chunked bodies, truncated requests.

import { connect } from 'node:net'

export interface RawResponse {
  status: number
  /** lower-case names; a repeated header keeps its first value */
  headers: Record<string, string>
  body: Buffer
}

/** What came back: a parsed response, or the connection closed (or timed out) without one. */
export type RawOutcome = { kind: 'response'; response: RawResponse } | { kind: 'closed'; bytes: number } | { kind: 'timeout' }

/**
 * Sends `request` on a new connection and reads the first response (bodies by Content-Length; HEAD
 * responses have none). The connection is closed afterwards.
 */
export function rawExchange(
  port: number,
  request: Buffer | string,
  options: { timeoutMs?: number; head?: boolean } = {},
): Promise<RawOutcome> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1')
    let received = Buffer.alloc(0)
    let settled = false
    const finish = (outcome: RawOutcome) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      socket.destroy()
      resolve(outcome)
    }
    const timer = setTimeout(() => finish({ kind: 'timeout' }), options.timeoutMs ?? 5000)
    socket.on('data', (chunk) => {
      received = Buffer.concat([received, chunk])
      const response = parseResponse(received, options.head ?? false)
      if (response) finish({ kind: 'response', response })
    })
    socket.on('error', () => finish({ kind: 'closed', bytes: received.length }))
    socket.on('close', () => finish({ kind: 'closed', bytes: received.length }))
    socket.write(request)
  })
}

/** A complete response at the start of `data`, or undefined while it is incomplete. */
export function parseResponse(data: Buffer, head: boolean): RawResponse | undefined {
  const end = data.indexOf('\r\n\r\n')
  if (end < 0) return undefined
  const [statusLine, ...lines] = data.subarray(0, end).toString('latin1').split('\r\n')
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine!)?.[1])
  const headers: Record<string, string> = {}
  for (const line of lines) {
    const colon = line.indexOf(':')
    const name = line.slice(0, colon).trim().toLowerCase()
    headers[name] ??= line.slice(colon + 1).trim()
  }
  const length = head ? 0 : Number(headers['content-length'] ?? 0)
  if (data.length < end + 4 + length) return undefined
  return { status, headers, body: data.subarray(end + 4, end + 4 + length) }
}
