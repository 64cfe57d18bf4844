// A link cut without a reset while its client publishes (real nats-server, through a proxy that stops reading, so
// the client's send buffer fills as on a partitioned link): nats.js finds the connection stale by its pings, and
// it is then closed and reconnected rather than left waiting on writes that cannot complete.
import t from 'tap'
import { connectResiliently } from '../nats-connection.ts'
import { freePort, startNats } from '../../test/support/servers.ts'
import { startTcpProxy } from '../../test/support/tcp-proxy.ts'
import { waitFor } from '../../test/support/wait.ts'

const nats = await startNats()
t.teardown(() => nats.dispose())

t.test('a publishing client whose link stalls reports the loss, and reconnects once the link is back', async (t) => {
  const listen = { host: '127.0.0.1', port: await freePort() }
  const proxy = await startTcpProxy(listen, { host: '127.0.0.1', port: Number(new URL(nats.url).port) })
  t.teardown(() => proxy.close())
  let forcedCloses = 0
  const nc = await connectResiliently(`nats://127.0.0.1:${listen.port}`, 'stalled', () => forcedCloses++)
  t.teardown(() => nc.close())
  const seen: string[] = []
  void (async () => {
    for await (const status of nc.status()) seen.push(status.type)
  })()
  // 10 MB a second: the link's buffers are full within a second or two of the stall
  const payload = new Uint8Array(1000)
  const publishing = setInterval(() => {
    for (let i = 0; i < 100; i++) nc.publish('stall.test', payload)
  }, 10)
  t.teardown(() => clearInterval(publishing))

  proxy.stall()
  // a hang detector: pings 2 s apart, stale after two unanswered (about 6 s), closed 1 s later; the slowest seen
  // took 7.0 s (timers set it, not the CPU), 30 s is 4.3 times that
  await waitFor(() => seen.includes('disconnect'), { timeoutMs: 30_000, what: 'the loss reported' })
  t.same(
    seen.filter((type) => type === 'staleConnection' || type === 'disconnect'),
    ['staleConnection', 'disconnect'],
    'found stale by its pings, then reported lost',
  )
  t.equal(forcedCloses, 1, 'closed by destroying its socket: its own close was still waiting on the unsent writes')

  clearInterval(publishing)
  proxy.resume()
  await waitFor(() => seen.includes('reconnect'), { timeoutMs: 30_000, what: 'the reconnection' })
  await nc.flush()
  t.pass('the connection answers again')
})
