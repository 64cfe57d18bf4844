import { execFileSync } from 'node:child_process'
import { connect, type Socket } from 'node:net'
import t from 'tap'
import { startTestEdge } from '../../../test/support/edge-harness.ts'
import { closedOutcome, parseResponse, type RawOutcome } from '../../../test/support/raw-http.ts'
import { HEAD_LIMIT_BYTES, LEGACY, MAX_HEADER_FIELDS, ownAnswer, summarize, UWS_BUILD } from '../../../test/support/uws-framing.ts'
import { waitFor } from '../../../test/support/wait.ts'

// Limits of uWebSockets.js, not of ours (docs/hostile-input.md "Request head"): it parses the request head
// before any handler of ours runs, and which build runs depends on the Node build (services/http/native-uws.ts).
// Both keep at most 4,096 bytes of a head that arrives in more than one read (MAX_FALLBACK_SIZE in its
// src/HttpParser.h) and refuse a longer one: v20.30 closes the connection without an answer, v20.57 answers its
// own 431 and closes. A longer head that arrives in one read is parsed by v20.30, whatever its length, and
// refused by v20.57 all the same. Neither lets a handler of ours answer, so none of these carries x-request-id.

const edge = await startTestEdge()
t.teardown(edge.stop)
const port = Number(new URL(edge.baseUrl).port)

/** A GET of /v1/status whose head is `bytes` long, padded with one header. */
function headOf(bytes: number): Buffer {
  const start = 'GET /v1/status HTTP/1.1\r\nhost: gateway.test\r\nconnection: close\r\nx-pad: '
  return Buffer.from(`${start}${'p'.repeat(bytes - start.length - 4)}\r\n\r\n`)
}

/** A GET of /v1/status with `fields` header fields (host and connection among them). */
function headWithFields(fields: number): Buffer {
  const padding = Array.from({ length: fields - 2 }, (_, n) => `x-field-${n}: ${n}\r\n`).join('')
  return Buffer.from(`GET /v1/status HTTP/1.1\r\nhost: gateway.test\r\nconnection: close\r\n${padding}\r\n`)
}

/** Bytes the server has not read yet on the connection from `localPort` (0 once it has closed it), from ss. */
function unread(localPort: number): number {
  const line = execFileSync('ss', ['-tnH', 'state', 'established', `( sport = :${port} and dport = :${localPort} )`], { encoding: 'utf8' })
  return line.trim() === '' ? 0 : Number(line.trim().split(/\s+/)[0])
}

/**
 * Sends the parts one write each, each once the server has read the one before, and reads the outcome: a
 * response, the connection closed without one, or nothing by `timeoutMs`.
 */
async function sendInParts(parts: Buffer[], timeoutMs = 5_000): Promise<RawOutcome> {
  const socket: Socket = connect(port, '127.0.0.1')
  let received = Buffer.alloc(0)
  const outcome = new Promise<RawOutcome>((resolve) => {
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk])
      const response = parseResponse(received, false)
      if (response) resolve({ kind: 'response', response })
    })
    socket.on('close', () => resolve(closedOutcome(received, false)))
    socket.on('error', () => {})
  })
  await new Promise((resolve) => socket.once('connect', resolve))
  for (const [index, part] of parts.entries()) {
    if (index > 0) await waitFor(() => unread(socket.localPort!) === 0, { what: 'the server to read the previous part' })
    socket.write(part)
  }
  let timer: NodeJS.Timeout | undefined
  const timedOut = new Promise<RawOutcome>((resolve) => (timer = setTimeout(() => resolve({ kind: 'timeout' }), timeoutMs)))
  const settled = await Promise.race([outcome, timedOut])
  clearTimeout(timer)
  socket.destroy()
  return settled
}

const oneRead = (head: Buffer) => [head]
const twoReads = (head: Buffer) => [head.subarray(0, 1400), head.subarray(1400)]

/** Ours: a 200 from /v1/status, with the request id every answer of ours carries. */
const answered = (outcome: RawOutcome) =>
  outcome.kind === 'response'
    ? { status: outcome.response.status, requestId: outcome.response.headers['x-request-id'] !== undefined }
    : outcome

t.test(`a head of ${HEAD_LIMIT_BYTES} bytes is answered however it arrives`, async (t) => {
  const head = headOf(HEAD_LIMIT_BYTES)
  t.same(answered(await sendInParts(oneRead(head))), { status: 200, requestId: true }, 'in one read')
  t.same(answered(await sendInParts(twoReads(head))), { status: 200, requestId: true }, 'in two reads')
})

for (const bytes of [HEAD_LIMIT_BYTES + 1, 20_000]) {
  t.test(`a head of ${bytes} bytes on ${UWS_BUILD}`, async (t) => {
    const head = headOf(bytes)
    if (LEGACY) {
      t.same(answered(await sendInParts(oneRead(head))), { status: 200, requestId: true }, 'in one read: answered')
      t.same(summarize(await sendInParts(twoReads(head))), { kind: 'closed', bytes: 0 }, 'in two reads: closed without an answer')
    } else {
      t.same(summarize(await sendInParts(oneRead(head))), ownAnswer(431), "in one read: uWebSockets' own 431, then closed")
      t.same(summarize(await sendInParts(twoReads(head))), ownAnswer(431), "in two reads: uWebSockets' own 431, then closed")
    }
  })
}

t.test(`${MAX_HEADER_FIELDS} header fields are answered; one more is refused by ${UWS_BUILD}`, async (t) => {
  t.same(answered(await sendInParts(oneRead(headWithFields(MAX_HEADER_FIELDS)))), { status: 200, requestId: true })
  const tooMany = headWithFields(MAX_HEADER_FIELDS + 1)
  t.ok(tooMany.length <= HEAD_LIMIT_BYTES, `within the head limit (${tooMany.length} bytes)`)
  if (LEGACY) {
    // its parser takes the head for an incomplete one and waits for more, up to the idle timeout
    t.same(summarize(await sendInParts(oneRead(tooMany), 1_000)), { kind: 'timeout' }, 'no answer, the connection held')
  } else {
    t.same(summarize(await sendInParts(oneRead(tooMany))), ownAnswer(431), "uWebSockets' own 431, then closed")
  }
})
