import { execFileSync } from 'node:child_process'
import { connect, type Socket } from 'node:net'
import t from 'tap'
import { startTestEdge } from '../../../test/support/edge-harness.ts'
import { parseResponse, type RawOutcome } from '../../../test/support/raw-http.ts'
import { waitFor } from '../../../test/support/wait.ts'
import { LEGACY_UWS, uwsPackageFor } from '../native-uws.ts'

// A limit of uWebSockets.js, not of ours (README "Hostile input"): it parses a request head from what one
// read of the socket brings, and keeps at most 4 KB of a head that arrives in more than one read
// (MAX_FALLBACK_SIZE in its src/HttpParser.h). A longer head in pieces is refused before any handler of
// ours runs: v20.30 closes the connection without an answer, v20.57 answers its own 431 and closes.
// Which one runs here depends on the Node build (services/http/native-uws.ts).

const edge = await startTestEdge()
t.teardown(edge.stop)
const port = Number(new URL(edge.baseUrl).port)
const legacy = uwsPackageFor(process.platform, process.arch, process.versions.modules) === LEGACY_UWS

/** A GET of /v1/status whose head is `bytes` long, padded with one header. */
function headOf(bytes: number): Buffer {
  const start = 'GET /v1/status HTTP/1.1\r\nhost: gateway.test\r\nconnection: close\r\nx-pad: '
  return Buffer.from(`${start}${'p'.repeat(bytes - start.length - 4)}\r\n\r\n`)
}

/** Bytes the server has not read yet on the connection from `localPort` (0 once it has closed it), from ss. */
function unread(localPort: number): number {
  const line = execFileSync('ss', ['-tnH', 'state', 'established', `( sport = :${port} and dport = :${localPort} )`], { encoding: 'utf8' })
  return line.trim() === '' ? 0 : Number(line.trim().split(/\s+/)[0])
}

/** Sends the parts one write each, each once the server has read the one before, and reads the outcome. */
async function sendInParts(parts: Buffer[]): Promise<RawOutcome> {
  const socket: Socket = connect(port, '127.0.0.1')
  let received = Buffer.alloc(0)
  const outcome = new Promise<RawOutcome>((resolve) => {
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk])
      const response = parseResponse(received, false)
      if (response) resolve({ kind: 'response', response })
    })
    socket.on('close', () => resolve({ kind: 'closed', bytes: received.length }))
    socket.on('error', () => {})
  })
  await new Promise((resolve) => socket.once('connect', resolve))
  for (const [index, part] of parts.entries()) {
    if (index > 0) await waitFor(() => unread(socket.localPort!) === 0, { what: 'the server to read the previous part' })
    socket.write(part)
  }
  const settled = await outcome
  socket.destroy()
  return settled
}

const summary = (outcome: RawOutcome) =>
  outcome.kind === 'response'
    ? { status: outcome.response.status, requestId: outcome.response.headers['x-request-id'] !== undefined }
    : { kind: outcome.kind }

t.test('a head of up to 4 KB is answered however it arrives', async (t) => {
  const head = headOf(4000)
  t.same(summary(await sendInParts([head.subarray(0, 1400), head.subarray(1400)])), { status: 200, requestId: true })
})

t.test('a longer head is answered when it arrives in one read, refused by uWebSockets.js when in pieces', async (t) => {
  const head = headOf(20_000)
  t.same(summary(await sendInParts([head])), { status: 200, requestId: true }, 'in one read')
  t.same(
    summary(await sendInParts([head.subarray(0, 1400), head.subarray(1400)])),
    legacy ? { kind: 'closed' } : { status: 431, requestId: false },
    'in two reads',
  )
})
