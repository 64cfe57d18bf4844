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
 * Sends `request` on a new connection and reads the first response (bodies by Content-Length, none for HEAD,
 * or to the connection's close when there is no Content-Length). The connection is closed afterwards.
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
    socket.on('error', () => finish(closedOutcome(received, options.head ?? false)))
    socket.on('close', () => finish(closedOutcome(received, options.head ?? false)))
    socket.write(request)
  })
}

/** How an exchange ended when the server closed the connection: with a response it completed, or without one. */
export function closedOutcome(data: Buffer, head: boolean): RawOutcome {
  const response = parseResponse(data, head, true)
  return response ? { kind: 'response', response } : { kind: 'closed', bytes: data.length }
}

/**
 * A complete response at the start of `data`, or undefined while it is incomplete. A response with neither
 * Content-Length nor Transfer-Encoding runs to the connection's close (RFC 9112 6.3): complete only once
 * `closed`. With `head`, a Content-Length announces no body.
 */
export function parseResponse(data: Buffer, head: boolean, closed = false): RawResponse | undefined {
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
  const bodiless = status < 200 || status === 204 || status === 304
  if (!bodiless && headers['content-length'] === undefined && headers['transfer-encoding'] === undefined) {
    // to a HEAD request too: whatever the server sends before it closes is read, a body it should not send included
    return closed ? { status, headers, body: data.subarray(end + 4) } : undefined
  }
  const length = head || bodiless ? 0 : Number(headers['content-length'] ?? 0)
  if (data.length < end + 4 + length) return undefined
  return { status, headers, body: data.subarray(end + 4, end + 4 + length) }
}
