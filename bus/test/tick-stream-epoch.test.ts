// The epoch on a JetStream cluster: every process numbers under one epoch, the process that made the tick stream
// included. When processes add a clustered stream at once, an answer just after can carry a creation time other
// than the one the stream keeps (nats-server 2.9); a cluster run's edge numbered under such a time, and every
// cursor it gave was foreign to the other edge (all 150 of its streams refused as `other_epoch` after it was killed).
import t from 'tap'
import { randomUUID } from 'node:crypto'
import { connect } from '@nats-io/transport-node'
import { openTickStream } from '../nats-tick-log.ts'
import { busNames } from '../subjects.ts'
import { startNatsCluster } from '../../test/support/servers.ts'

const cluster = await startNatsCluster(3)
t.teardown(() => Promise.all(cluster.map((node) => node.dispose())))

// a hang detector: the opens took 14.5 s on a quick machine of the kind (tap's own default is 30 s)
const OPENS_DEADLINE_MS = 120_000

t.test(
  'on a three-node cluster, processes that open the tick stream at once read one epoch: the one it keeps',
  { timeout: OPENS_DEADLINE_MS },
  async (t) => {
    const connections = await Promise.all(cluster.map((node) => connect({ servers: node.url })))
    t.teardown(() => Promise.all(connections.map((nc) => nc.close())))
    const options = { windowSeconds: 60, replicas: 3 }
    // without the settling read, 100 streams made at once from three nodes gave an odd epoch in about every other run
    const foreign: string[] = []
    const started = performance.now()
    await Promise.all(
      Array.from({ length: 100 }, async () => {
        const names = busNames(`t${randomUUID().slice(0, 8)}`)
        const epochs = await Promise.all(connections.map((nc) => openTickStream(nc, names, options)))
        const kept = (await openTickStream(connections[0]!, names, options)).epoch
        for (const { epoch } of epochs) if (epoch !== kept) foreign.push(`${names.tickStream}: ${epoch}, kept ${kept}`)
      }),
    )
    t.comment(`opened in ${Math.round(performance.now() - started)} ms`)
    t.same(foreign, [], 'each of 300 opens (100 streams, 3 processes each) read the epoch the stream keeps')
  },
)
