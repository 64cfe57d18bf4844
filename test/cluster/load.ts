// The load that runs through every fault: stream clients and REST readers through HAProxy, and
// onboardings posted one after another. Each records what it saw, for the checkers.
import WebSocket from 'ws'
import { CLIENT_ADDRESSES } from './hosts.ts'
import { httpRequest, jsonOf } from './http-client.ts'
import { LB_URL } from './parts.ts'

export const STREAM_PAIRS = ['BTC-USD', 'ETH-USD', 'SOL-USD']

/** Per second of the run: what the load got. */
export interface Second {
  ticks: number
  restOk: number
  restFailed: number
  streamsOpen: number
  reconnects: number
  onboardingsDone: number
}

export class Throughput {
  readonly seconds = new Map<number, Second>()
  constructor(private readonly startedAt: number) {}
  at(time = Date.now()): Second {
    const second = Math.floor((time - this.startedAt) / 1000)
    let entry = this.seconds.get(second)
    if (!entry)
      this.seconds.set(second, (entry = { ticks: 0, restOk: 0, restFailed: 0, streamsOpen: 0, reconnects: 0, onboardingsDone: 0 }))
    return entry
  }
}

/** What one stream connection saw, checked by the stream checker. */
export interface StreamRecord {
  client: number
  opened: number
  closed?: number
  ticks: number
  /** when its last tick came (0 before the first) */
  lastTickAt: number
  /** ticks whose seq was not above the one before for the same pair (across a recovered resume too) */
  backwards: Array<{ at: number; pair: string; from: number; to: number }>
  /** each seq jump, when it came */
  jumps: Array<{ at: number; pair: string; missed: number }>
  /** each gap frame, when it came */
  gaps: Array<{ at: number; dropped: number }>
  /** after a recovered resume: ticks missed between the last tick before it and each pair's first after it that no gap frame announced */
  seamMissed: number
  snapshot: boolean
  /** a reconnect that asked to resume after its last cursor: whether the server recovered it */
  resumed?: 'recovered' | 'refused'
}

/**
 * Stream clients that resume as the client package does: each asks for cursors, keeps the last one and the
 * last seq per pair, and reconnects with `?from=<cursor>`. A recovered resume goes on from those seqs, so
 * a jump or a repeat across it is a tick lost or sent twice by the move; a refused one starts from its snapshot.
 */
/** Ticks a connection missed by seq jumps, up to `until` (ms since the epoch). */
export const missedByJumps = (record: StreamRecord, until = Infinity) =>
  record.jumps.reduce((sum, jump) => (jump.at <= until ? sum + jump.missed : sum), 0)

/** Ticks its gap frames announced, up to `until`. */
export const droppedByGaps = (record: StreamRecord, until = Infinity) =>
  record.gaps.reduce((sum, gap) => (gap.at <= until ? sum + gap.dropped : sum), 0)

export function streamClients(count: number, throughput: Throughput) {
  const records: StreamRecord[] = []
  const open = new Set<WebSocket>()
  let running = true
  const cursors = new Map<number, string>()
  const lastSeqs = new Map<number, Map<string, number>>()
  const connect = (client: number) => {
    if (!running) return
    const cursor = cursors.get(client)
    const resume = cursor === undefined ? 'cursor=true' : `from=${cursor}`
    const socket = new WebSocket(`${LB_URL.replace('http', 'ws')}/v1/prices/stream?pairs=${STREAM_PAIRS.join(',')}&${resume}`, {
      localAddress: CLIENT_ADDRESSES[client % CLIENT_ADDRESSES.length],
      handshakeTimeout: 5000,
    })
    const record: StreamRecord = {
      client,
      opened: Date.now(),
      ticks: 0,
      lastTickAt: 0,
      backwards: [],
      jumps: [],
      gaps: [],
      seamMissed: 0,
      snapshot: false,
    }
    let last = lastSeqs.get(client) ?? new Map<string, number>()
    lastSeqs.set(client, last)
    const pairsSeen = new Set<string>()
    // ticks announced by gap frames and not yet matched by a seq jump
    let announced = 0
    socket.on('open', () => {
      open.add(socket)
      records.push(record)
    })
    socket.on('message', (data) => {
      const frame = JSON.parse((data as Buffer).toString())
      if (frame.cursor !== undefined) cursors.set(client, frame.cursor)
      if (frame.type === 'snapshot') {
        record.snapshot = true
        lastSeqs.set(client, (last = new Map(Object.entries(frame.seq as Record<string, number>))))
      } else if (frame.type === 'tick') {
        const pair = frame.data.pair as string
        const before = last.get(pair) ?? 0
        if (frame.seq <= before) record.backwards.push({ at: Date.now(), pair, from: before, to: frame.seq })
        else if (frame.seq > before + 1) {
          const missed = frame.seq - before - 1
          record.jumps.push({ at: Date.now(), pair, missed })
          const explained = Math.min(missed, announced)
          announced -= explained
          if (record.resumed === 'recovered' && !pairsSeen.has(pair)) record.seamMissed += missed - explained
        }
        pairsSeen.add(pair)
        last.set(pair, frame.seq)
        record.ticks++
        record.lastTickAt = Date.now()
        throughput.at().ticks++
      } else if (frame.type === 'gap') {
        record.gaps.push({ at: Date.now(), dropped: frame.dropped })
        announced += frame.dropped as number
      } else if (frame.type === 'resumed') record.resumed = frame.recovered ? 'recovered' : 'refused'
    })
    socket.on('error', () => undefined)
    socket.on('close', () => {
      record.closed = Date.now()
      open.delete(socket)
      if (!running) return
      throughput.at().reconnects++
      // reconnect with jitter, as the client package does, so a dead edge's clients do not arrive at once
      setTimeout(() => connect(client), 200 + Math.random() * 1800)
    })
  }
  for (let client = 0; client < count; client++) setTimeout(() => connect(client), client * 10)
  const meter = setInterval(() => (throughput.at().streamsOpen = open.size), 250)
  return {
    records,
    openCount: () => open.size,
    stop() {
      running = false
      clearInterval(meter)
      for (const socket of open) socket.terminate()
    },
  }
}

/** `count` readers of /v1/prices through the load balancer, each from its own address, 4 requests a second. */
export function restReaders(count: number, throughput: Throughput) {
  let running = true
  const statuses = new Map<number, number>()
  const loop = async (reader: number) => {
    while (running) {
      const started = Date.now()
      const answer = await httpRequest(`${LB_URL}/v1/prices`, { localAddress: CLIENT_ADDRESSES[reader], timeoutMs: 5000 }).catch(
        () => undefined,
      )
      const status = answer?.status ?? 0
      statuses.set(status, (statuses.get(status) ?? 0) + 1)
      if (status === 200) throughput.at().restOk++
      else throughput.at().restFailed++
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, 250 - (Date.now() - started))))
    }
  }
  const loops = Array.from({ length: count }, (_, reader) => loop(reader))
  return {
    statuses,
    async stop() {
      running = false
      await Promise.all(loops)
    },
  }
}

/** Every answer one signed onboarding got, in order. */
export interface OnboardingHistory {
  id?: string
  partner: string
  postedAt: number
  answers: Array<{ at: number; via: 'POST' | 'GET'; status: number; body?: any; error?: string }>
  terminal?: { status: string; userOpHash?: string }
  /** a terminal answer that differed from the first one */
  conflicting: Array<{ status: string; userOpHash?: string }>
}

const TERMINAL = new Set(['confirmed', 'failed'])

/**
 * Posts one signed onboarding and follows it to its terminal answer the way a careful partner does:
 * polls while pending, posts the same signed content again when the answer is lost (network error, 5xx,
 * or 404 for a job the queue no longer knows). After the first terminal answer it asks once more, by a
 * repeated POST, and records any answer that differs.
 */
export async function onboardOnce(
  body: string,
  partner: string,
  localAddress: string,
  throughput: Throughput,
  deadlineMs: number,
  /** where the answers are recorded as they come, for a caller that watches them */
  answers: OnboardingHistory['answers'] = [],
) {
  const history: OnboardingHistory = { partner, postedAt: Date.now(), answers, conflicting: [] }
  const deadline = Date.now() + deadlineMs
  const ask = async (via: 'POST' | 'GET') => {
    const url = via === 'POST' ? `${LB_URL}/v1/onboard` : `${LB_URL}/v1/onboard/${history.id}`
    try {
      const answer = await httpRequest(url, { method: via, body: via === 'POST' ? body : undefined, localAddress, timeoutMs: 15_000 })
      const json = jsonOf(answer)
      history.answers.push({ at: Date.now(), via, status: answer.status, body: json })
      if (json?.id) history.id = json.id
      return { status: answer.status, json }
    } catch (error) {
      history.answers.push({ at: Date.now(), via, status: 0, error: (error as Error).message })
      return { status: 0, json: undefined }
    }
  }
  let next: 'POST' | 'GET' = 'POST'
  while (Date.now() < deadline) {
    const { status, json } = await ask(next)
    if (status === 200 && TERMINAL.has(json?.status)) {
      history.terminal = { status: json.status, userOpHash: json.userOpHash }
      throughput.at().onboardingsDone++
      break
    }
    next = status === 202 || (status === 200 && json?.status === 'pending') ? 'GET' : 'POST'
    if (status === 429 || status === 0 || status >= 500 || status === 404) await new Promise((resolve) => setTimeout(resolve, 500))
    else if (next === 'GET') await new Promise((resolve) => setTimeout(resolve, 300))
  }
  if (history.terminal) {
    const again = await ask('POST')
    if (again.status === 200 && TERMINAL.has(again.json?.status)) {
      const outcome = { status: again.json.status, userOpHash: again.json.userOpHash }
      if (outcome.status !== history.terminal.status || outcome.userOpHash !== history.terminal.userOpHash)
        history.conflicting.push(outcome)
    }
  }
  return history
}
