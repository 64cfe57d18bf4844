// The upstream feed goes away and comes back: /v1/status follows it, and a reference stream client
// connected throughout sees prices flow again, without reconnecting or restarting anything. The service runs
// from the compiled build, its HERMES_URL the Hermes double started here.
import t from 'tap'
import { nodeSocket } from '../../client/src/node.ts'
import { PriceStreamClient } from '../../client/src/price-stream-client.ts'
import { FEED_IDS, feedIdFor } from '../../services/ingestor/feed-ids.ts'
import { HermesTestServer } from '../support/hermes/hermes-server.ts'
import { readJson } from '../support/http.ts'
import { waitFor } from '../support/wait.ts'
import { startServiceProcess, UNUSED_INDEXED_SOURCE } from '../support/service-process.ts'

t.test('status follows the upstream feed; the stream resumes', async (t) => {
  // one slot every 50 ms, each carrying every feed; BTC's price moves every slot while the upstream is up
  const hermes = await HermesTestServer.start({ slotMs: 50 })
  t.teardown(() => hermes.close())
  const publishTime = () => Math.floor(Date.now() / 1000)
  for (const entry of FEED_IDS) {
    if (entry.pythSymbol) hermes.setPrice({ feedId: entry.feedId, price: '10000000', conf: '1000', expo: -5, publishTime: publishTime() })
  }
  const service = startServiceProcess(['edge', 'ingestor'], {
    ...UNUSED_INDEXED_SOURCE,
    PORT: '0',
    HOST: '127.0.0.1',
    FEED_SOURCE: 'hermes',
    HERMES_URL: hermes.url,
    STALE_AFTER_MS: '800',
    ONBOARDING_ENABLED: 'false',
    RATE_LIMITS_ENABLED: 'false',
  })
  t.teardown(() => service.stop())
  const baseUrl = `http://127.0.0.1:${Number((await service.waitForLog('edge listening')).port)}`
  const status = async () => (await readJson(await fetch(`${baseUrl}/v1/status`))).status as string

  let mid = 95_000
  const publish = setInterval(() => {
    mid += 1
    hermes.setPrice({ feedId: feedIdFor('BTC-USD'), price: String(mid * 1e8), conf: String(5 * 1e8), expo: -8, publishTime: publishTime() })
  }, 50)
  t.teardown(() => clearInterval(publish))

  const client = new PriceStreamClient({
    openSocket: nodeSocket(),
    baseUrl,
    pairs: ['BTC-USD'],
    backoff: { initialMs: 50, maxMs: 500 },
  }).start()
  t.teardown(() => client.close())
  const mids: number[] = []
  client.on('price', (row) => mids.push(row.mid))
  await waitFor(async () => mids.length >= 3 && (await status()) === 'ok', { what: 'ticks and ok before the outage' })

  // the upstream refuses and drops the stream: the feed falls silent
  for (let attempt = 0; attempt < 2; attempt++) hermes.failNext(503)
  hermes.dropConnections()
  await waitFor(async () => (await status()) === 'degraded', { what: 'degraded while the feed is gone' })
  const snapshot = await readJson(await fetch(`${baseUrl}/v1/prices`))
  t.equal(snapshot.stale, true, 'the snapshot says stale')
  t.equal(snapshot.prices.find((row: { pair: string }) => row.pair === 'BTC-USD').pair, 'BTC-USD', 'the last row stays')
  const lastBeforeRecovery = mids.at(-1)!

  // the ingestor reconnects by itself; status and the stream follow
  await waitFor(async () => (await status()) === 'ok', { what: 'ok once the feed is back' })
  await waitFor(() => mids.at(-1)! > lastBeforeRecovery + 2, { what: 'new prices on the same stream' })
  t.ok(hermes.connections >= 2, 'the ingestor reconnected to the upstream')
  t.equal(client.prices.get('BTC-USD')?.mid, mids.at(-1), 'the client holds the newest price')
})
