import t, { type Test } from 'tap'
import { randomUUID } from 'node:crypto'
import { connect, TimeoutError } from '@nats-io/transport-node'
import { jetstreamManager, type DirectMsgRequest, type JetStreamManager } from '@nats-io/jetstream'
import { latestRowReader, type UnansweredGets } from '../latest-rows.ts'
import { natsPriceBus } from '../nats-price-bus.ts'
import { busNames } from '../subjects.ts'
import { PAIRS } from '../../schemas/pairs.ts'
import { startNats } from '../../test/support/servers.ts'
import { silentLogger } from '../../test/support/silent-logger.ts'

const nats = await startNats()
t.teardown(() => nats.dispose())

// a bucket holding ETH-USD's and XAU-USD's rows, and a manager whose direct gets of the listed subjects time out, as
// a replica still catching up after a partition lets some of them do (the other gets go to the real server)
async function bucketWithRows(t: Test) {
  const namespace = `t${randomUUID().slice(0, 8)}`
  const publisher = await natsPriceBus({ servers: nats.url, namespace, name: 'publisher', logger: silentLogger(), publishes: true })
  t.teardown(() => publisher.close())
  publisher.publishTick('ETH-USD', Buffer.from('{"v":1}'))
  publisher.publishTick('XAU-USD', Buffer.from('{"v":2}'))
  await publisher.flush()
  const nc = await connect({ servers: nats.url })
  t.teardown(() => nc.close())
  const jsm = await jetstreamManager(nc)
  const names = busNames(namespace)
  const timingOut = (pairs: string[]): JetStreamManager => {
    const subjects = new Set(pairs.map((pair) => names.latestRowSubject(pair)))
    const direct = {
      getMessage: (stream: string, query: DirectMsgRequest) =>
        'last_by_subj' in query && subjects.has(query.last_by_subj)
          ? Promise.reject(new TimeoutError())
          : jsm.direct.getMessage(stream, query),
    }
    return Object.assign(Object.create(jsm) as JetStreamManager, { direct })
  }
  return { names, timingOut }
}

t.test('a read takes the rows of the gets that answered, and names the pairs whose gets did not', async (t) => {
  const { names, timingOut } = await bucketWithRows(t)
  const heard: UnansweredGets[] = []
  const read = latestRowReader(timingOut(['XAU-USD', 'SOL-USD']), names, true, (unanswered) => heard.push(unanswered))
  const rows = await read()
  t.same(
    [...rows].map(([pair, { row, seq }]) => `${pair}=${Buffer.from(row).toString()}#${seq}`),
    ['ETH-USD={"v":1}#1'],
    "ETH-USD's row; XAU-USD's get timed out",
  )
  t.equal(heard.length, 1)
  const inListOrder = PAIRS.map(({ symbol }) => symbol).filter((symbol) => symbol === 'XAU-USD' || symbol === 'SOL-USD')
  t.same(heard[0]!.pairs, inListOrder, 'both pairs whose gets timed out, in the list order')
  t.type(heard[0]!.error, TimeoutError, 'with the first failure')
})

t.test('a read where every get answered hears of nothing unanswered', async (t) => {
  const { names, timingOut } = await bucketWithRows(t)
  const heard: UnansweredGets[] = []
  const rows = await latestRowReader(timingOut([]), names, true, (unanswered) => heard.push(unanswered))()
  t.same([...rows.keys()].sort(), ['ETH-USD', 'XAU-USD'])
  t.same(heard, [])
})

t.test('a read where no get answered fails, with the first failure', async (t) => {
  const { names, timingOut } = await bucketWithRows(t)
  const heard: UnansweredGets[] = []
  const read = latestRowReader(timingOut(PAIRS.map(({ symbol }) => symbol)), names, true, (unanswered) => heard.push(unanswered))
  await t.rejects(read(), TimeoutError)
  t.same(heard, [], 'a failed read is its caller to report, not a partial one')
})
