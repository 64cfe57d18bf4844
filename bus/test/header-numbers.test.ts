// The numbers of a republished tick read from its header bytes, on messages from a real nats-server: the same
// values nats.js's decoded headers give, without decoding them, and nothing where nats.js would find no number.
import t from 'tap'
import { randomUUID } from 'node:crypto'
import { connect, headers, type Msg } from '@nats-io/transport-node'
import { headerNumber, messageBytes } from '../header-numbers.ts'
import { openTickStream, SEQ_HEADER } from '../nats-tick-log.ts'
import { busNames } from '../subjects.ts'
import { startNats } from '../../test/support/servers.ts'

const nats = await startNats()
t.teardown(() => nats.dispose())
const nc = await connect({ servers: nats.url })
t.teardown(() => nc.close())

/** the messages that arrive on `subject` after `send` */
async function received(subject: string, count: number, send: () => void): Promise<Msg[]> {
  const messages: Msg[] = []
  const arrived = new Promise<void>((resolve) =>
    nc.subscribe(subject, {
      max: count,
      callback: (_error, message) => {
        messages.push(message)
        if (messages.length === count) resolve()
      },
    }),
  )
  await nc.flush()
  send()
  await arrived
  return messages
}

const position = headerNumber('Nats-Sequence')
const seq = headerNumber(SEQ_HEADER)

t.test('a republished tick: its position and seq, as the decoded headers give them, from the header bytes', async (t) => {
  const names = busNames(`h${randomUUID().slice(0, 8)}`)
  await openTickStream(nc, names, { windowSeconds: 60, replicas: 1 })
  const messages = await received(names.allNumberedTicks, 2, () => {
    for (const value of ['7', '12345678901']) {
      const header = headers()
      header.set(SEQ_HEADER, value)
      nc.publish(names.tickSubject('BTC-USD'), '{}', { headers: header })
    }
  })
  for (const message of messages) {
    t.ok(messageBytes(message)?.headerLength, 'the installed nats.js keeps the header bytes where they are read')
    t.equal(position(message), Number(message.headers!.get('Nats-Sequence')))
    t.equal(seq(message), Number(message.headers!.get(SEQ_HEADER)))
  }
  t.same(messages.map(position), [1, 2])
  t.same(messages.map(seq), [7, 12_345_678_901])
})

t.test('no number where there is none: a missing header, a value that is not a positive whole number, no headers', async (t) => {
  const subject = `h${randomUUID().slice(0, 8)}`
  const values = ['', '0', '-3', '12x', '1.5', ' 9 x', '99999999999999999999']
  const messages = await received(subject, values.length + 3, () => {
    for (const value of values) {
      const header = headers()
      header.set(SEQ_HEADER, value)
      header.set('Other', '5')
      nc.publish(subject, '{}', { headers: header })
    }
    const other = headers()
    other.set('X-Price-Seq', '4')
    nc.publish(subject, '{}', { headers: other })
    nc.publish(subject, '{}')
    // the name in the payload, after a header block without it
    nc.publish(subject, `\r\n${SEQ_HEADER}: 6\r\n`, { headers: other })
  })
  t.same(
    messages.map((message) => seq(message)),
    messages.map(() => undefined),
  )
  t.equal(headerNumber('Other')(messages[0]!), 5, 'a header after the first is found too')
})
