// A NUL byte (or any byte below 0x21) in the request target never reaches a handler of ours: uWebSockets.js
// refuses it in its request-line parser (consumeRequestLine in its src/HttpParser.h), so no 400 of ours can
// answer it. What happens depends on the build (services/http/native-uws.ts):
// - v20.30 (Node 18/20) returns "incomplete" for a request line it cannot parse, keeps the bytes in its
//   fallback buffer and waits: no answer, the connection closed by its HTTP idle timeout (10 s, on a 4 s
//   timer: 8 to 12 s), or at once when what it holds passes 4 KB (MAX_FALLBACK_SIZE).
// - v20.57 (Node 22+) refuses the line itself: its own 505 page, then the connection closed.
// (test/support/uws-framing.ts has each build's figures.)
// Either way the socket is held for a bounded time, and everyone else is answered meanwhile.
import t from 'tap'
import { startTestEdge } from '../../../test/support/edge-harness.ts'
import { rawExchange, type RawOutcome } from '../../../test/support/raw-http.ts'
import { IDLE_CUT, LEGACY as legacy, ownAnswer, summarize } from '../../../test/support/uws-framing.ts'

const { withinMs: CUT_WITHIN_MS, notBeforeMs: NOT_BEFORE_MS } = IDLE_CUT
const edge = await startTestEdge({ env: { RATE_LIMITS_ENABLED: 'false' } })
t.teardown(edge.stop)
const port = Number(new URL(edge.baseUrl).port)

const NUL_REQUEST = 'GET /v1/\0 HTTP/1.1\r\nhost: gateway.test\r\n\r\n'

async function timed(request: Buffer | string): Promise<{ outcome: RawOutcome; elapsedMs: number }> {
  const startedAt = performance.now()
  const outcome = await rawExchange(port, request, { timeoutMs: CUT_WITHIN_MS + 2_000 })
  return { outcome, elapsedMs: performance.now() - startedAt }
}

const summary = (outcome: RawOutcome) =>
  outcome.kind === 'response'
    ? { status: outcome.response.status, requestId: outcome.response.headers['x-request-id'] !== undefined }
    : outcome

t.test(
  `GET /v1/\\0: ${legacy ? 'no answer, closed by the idle timeout' : "uWebSockets.js's own 505"}; others answered meanwhile`,
  async (t) => {
    const held = timed(NUL_REQUEST)
    // while it is held, an ordinary request on another connection is answered
    const ordinary = await rawExchange(port, 'GET /v1/status HTTP/1.1\r\nhost: gateway.test\r\nconnection: close\r\n\r\n')
    t.same(summary(ordinary), { status: 200, requestId: true })
    const { outcome, elapsedMs } = await held
    if (legacy) {
      t.same(outcome, { kind: 'closed', bytes: 0 }, 'closed by the server without a byte of answer')
      t.ok(elapsedMs >= NOT_BEFORE_MS, `not before the idle timeout (${Math.round(elapsedMs)} ms)`)
      t.ok(elapsedMs < CUT_WITHIN_MS, `within the idle timeout's bound (${Math.round(elapsedMs)} ms)`)
    } else {
      t.same(summarize(outcome), ownAnswer(505), 'refused by the parser, before any handler')
    }
  },
)

t.test('a NUL request line followed by more than 4 KB is dropped at once', async (t) => {
  const { outcome, elapsedMs } = await timed(Buffer.concat([Buffer.from(NUL_REQUEST), Buffer.alloc(8192, 'a')]))
  if (legacy) {
    t.same(outcome, { kind: 'closed', bytes: 0 }, 'closed without an answer')
    t.ok(elapsedMs < NOT_BEFORE_MS, `before any idle timeout (${Math.round(elapsedMs)} ms)`)
  } else {
    t.same(summarize(outcome), ownAnswer(505))
  }
})
