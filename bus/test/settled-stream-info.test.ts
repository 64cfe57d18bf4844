// The tick stream's creation time, the epoch of every cursor, taken only once it is settled (bus/nats-tick-log.ts).
// A JetStream cluster's answers are played here by a stand-in of the stream API: the odd answers it gives are
// rare (bus/test/tick-stream-epoch.test.ts makes them on a real cluster, about once in hundreds of opens).
import t from 'tap'
import type { StreamInfo } from '@nats-io/jetstream'
import { settledStreamInfo } from '../nats-tick-log.ts'

/** Go's zero time, as nats-server writes an unset creation time */
const GO_ZERO_TIME = '0001-01-01T00:00:00Z'
const CLUSTER = { name: 'c', leader: 'n1' }

const streamInfo = (created: string, cluster?: typeof CLUSTER) => ({ created, cluster }) as unknown as StreamInfo

/** A stream API whose info requests answer `answers` in turn, counting them. */
function answering(...answers: StreamInfo[]) {
  const reads: string[] = []
  return {
    reads,
    jsm: {
      streams: {
        info: async () => {
          const answer = answers[reads.length]
          if (answer === undefined) throw new Error('asked once more than the test expects')
          reads.push(answer.created)
          return answer
        },
      },
    },
  }
}

t.test("a creation time of Go's zero time is read again, on a cluster or not", async (t) => {
  // on a cluster, the stream being made: the real time is young, and read until two reads agree
  const young = new Date(Date.now() - 1_000).toISOString()
  const made = answering(streamInfo(young, CLUSTER), streamInfo(young, CLUSTER))
  t.equal((await settledStreamInfo(made.jsm, 'ticks', streamInfo(GO_ZERO_TIME, CLUSTER))).created, young)
  t.same(made.reads, [young, young], 'read until two reads agree')
  // a real time that is not young is taken as it comes
  const old = new Date(Date.now() - 60_000).toISOString()
  const kept = answering(streamInfo(old))
  t.equal((await settledStreamInfo(kept.jsm, 'ticks', streamInfo(GO_ZERO_TIME))).created, old)
  t.same(kept.reads, [old], 'read once more')
})

t.test('a young clustered stream is read again; an old one, or one on one server, is taken at once', async (t) => {
  const young = new Date(Date.now() - 1_000).toISOString()
  const other = new Date(Date.now() - 1_020).toISOString()
  const stream = answering(streamInfo(young, CLUSTER), streamInfo(young, CLUSTER))
  t.equal((await settledStreamInfo(stream.jsm, 'ticks', streamInfo(other, CLUSTER))).created, young)
  t.same(stream.reads, [young, young])

  const old = new Date(Date.now() - 60_000).toISOString()
  const none = answering()
  t.equal((await settledStreamInfo(none.jsm, 'ticks', streamInfo(old, CLUSTER))).created, old)
  t.equal((await settledStreamInfo(none.jsm, 'ticks', streamInfo(young))).created, young)
  t.same(none.reads, [], 'no read')
})
