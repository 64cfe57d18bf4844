// What the loaded build of uWebSockets.js (services/http/native-uws.ts picks it by the Node ABI) does with a
// request before any handler of ours runs: its limits on the request head, the answers it writes itself and
// its idle timeout. From its source (the uWebSockets commit each build pins) and measured on loopback;
// docs/hostile-input.md ("Request head and framing", "HTTP idle and response timeouts") gives the source lines.
//   v20.30 (uWebSockets.js, Node 20): uWebSockets 7999d09 (its tag v20.43.0)
//   v20.57 (@btc-vision/uwebsockets.js, Node 22+): uWebSockets c8da12b (v20.74.0 and 9 commits)
import { LEGACY_UWS, uwsPackageFor } from '../../services/http/native-uws.ts'
import type { RawOutcome, RawResponse } from './raw-http.ts'

export const LOADED_UWS = uwsPackageFor(process.platform, process.arch, process.versions.modules)
/** v20.30; otherwise v20.57 */
export const LEGACY = LOADED_UWS === LEGACY_UWS
export const UWS_BUILD = LEGACY ? 'v20.30' : 'v20.57'

/**
 * Both builds keep at most this much of a request head that arrives in more than one read
 * (MAX_FALLBACK_SIZE in src/HttpParser.h) and refuse a longer one once that much is held. v20.57 also
 * refuses a longer head that arrived in one read; v20.30 parses that whatever its length.
 */
export const HEAD_LIMIT_BYTES = 4096

/** Header fields a head may have (the request line not counted): MAX_HEADERS 50 (v20.30), UWS_HTTP_MAX_HEADERS_COUNT 100 (v20.57), less two. */
export const MAX_HEADER_FIELDS = LEGACY ? 48 : 98

/**
 * uWebSockets' own answers (src/HttpErrors.h of v20.57), written by its parser instead of calling any handler,
 * then the connection is closed: no Content-Length, so the page runs to the close. v20.30 writes none: where
 * v20.57 answers, v20.30 closes the connection without a byte or keeps waiting for a head it can parse.
 */
const OWN_PAGES: Record<number, string> = {
  400: '<h1>Bad Request</h1><hr><i>uWebSockets/20 Server</i>',
  431: '<h1>Request Header Fields Too Large</h1><hr><i>uWebSockets/20 Server</i>',
  505: '<h1>HTTP Version Not Supported</h1><p>This server does not support HTTP/1.0.</p><hr><i>uWebSockets/20 Server</i>',
}

/** The statuses uWebSockets answers itself on this build (none on v20.30). */
export const OWN_ANSWER_STATUSES: readonly number[] = LEGACY ? [] : Object.keys(OWN_PAGES).map(Number)

/** An outcome as the tests compare it: a response's status, headers and body text, or how it ended. */
export type OutcomeSummary =
  { status: number; headers: Record<string, string>; body: string } | { kind: 'closed'; bytes: number } | { kind: 'timeout' }

export function summarize(outcome: RawOutcome): OutcomeSummary {
  if (outcome.kind !== 'response') return outcome
  const { status, headers, body } = outcome.response
  return { status, headers, body: body.toString('latin1') }
}

/** uWebSockets' own answer with `status`, as summarize gives it: only `Connection: close`, its page to the close. */
export function ownAnswer(status: number): OutcomeSummary {
  const page = OWN_PAGES[status]
  if (page === undefined || LEGACY) throw new Error(`uWebSockets.js ${UWS_BUILD} writes no ${status} of its own`)
  return { status, headers: { connection: 'close' }, body: page }
}

/** The status of `response` when it is exactly one of uWebSockets' own answers on this build, else undefined. */
export function ownAnswerStatus(response: RawResponse): number | undefined {
  if (!OWN_ANSWER_STATUSES.includes(response.status)) return undefined
  const expected = ownAnswer(response.status)
  const actual = summarize({ kind: 'response', response })
  return JSON.stringify(actual) === JSON.stringify(expected) ? response.status : undefined
}

/**
 * When the idle timeout cuts a connection that has no complete request head, or that went quiet after an
 * answer. Both builds time out at 10 s (HTTP_IDLE_TIMEOUT_S and HTTP_TIMEOUT_S; v20.57 only once the service
 * sets it: holdHttpTimeouts in services/http/native-uws.ts, as its default is 30 s) on uSockets' timer that
 * ticks every 4 s: a timeout of 10 s fires at the third tick after it is set ((10 + 3) >> 2 in
 * us_socket_timeout, src/socket.c), more than 8 and at most 12 s later.
 */
export const IDLE_CUT = {
  /** not before (two full ticks, less a little for the loop's cached clock) */
  notBeforeMs: 7_800,
  /** by then (the third tick, and one more tick of margin for a busy machine) */
  withinMs: 16_000,
}
