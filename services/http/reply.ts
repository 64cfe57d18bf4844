// What a route handler returns; the server writes it.

export interface Reply {
  status: number
  body: Buffer | string
  contentType: string
  headers?: Record<string, string>
}

export function jsonReply(status: number, value: unknown, headers?: Record<string, string>): Reply {
  return { status, body: JSON.stringify(value), contentType: 'application/json', ...(headers && { headers }) }
}

/** A body that is already JSON bytes (pre-serialised snapshots). */
export function jsonBytesReply(status: number, body: Buffer, headers?: Record<string, string>): Reply {
  return { status, body, contentType: 'application/json', ...(headers && { headers }) }
}
