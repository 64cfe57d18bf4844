import t from 'tap'
import { randomUUID } from 'node:crypto'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PAIRS } from '../../schemas/pairs.ts'
import { readJson } from '../support/http.ts'
import { freePort, startNats } from '../support/servers.ts'
import { startServiceProcess, UNUSED_INDEXED_SOURCE } from '../support/service-process.ts'
import { waitFor } from '../support/wait.ts'

const nats = await startNats()
t.teardown(() => nats.dispose())

t.test('an ingestor process and separate edge processes on one NATS serve the same snapshot', async (t) => {
  // a recorded file replayed once: every edge must end up with exactly these rows
  const dir = mkdtempSync(join(tmpdir(), 'e2e-'))
  const file = join(dir, 'ticks.jsonl')
  const nowSeconds = Math.floor(Date.now() / 1000)
  const lines = PAIRS.slice(0, 20).flatMap((pair, index) =>
    [1, 2, 3].map((step) =>
      JSON.stringify({
        pair: pair.symbol,
        bid: index + step,
        mid: index + step + 0.5,
        ask: index + step + 1,
        timestampSeconds: nowSeconds,
      }),
    ),
  )
  writeFileSync(file, lines.join('\n'))
  // market data only: no chains for onboarding
  const shared = {
    ...UNUSED_INDEXED_SOURCE,
    NATS_URL: nats.url,
    BUS_NAMESPACE: `e2e${randomUUID().slice(0, 8)}`,
    LOG_LEVEL: 'info',
    STALE_AFTER_MS: '600000',
    ONBOARDING_ENABLED: 'false',
  }

  const [firstPort, laterPort] = [await freePort(), await freePort()]
  const firstEdge = startServiceProcess(['edge'], { ...shared, PORT: String(firstPort), HOST: '127.0.0.1' })
  t.teardown(() => firstEdge.stop())
  await firstEdge.waitForLog('edge listening')

  const ingestor = startServiceProcess(['ingestor'], {
    ...shared,
    FEED_SOURCE: 'replay',
    REPLAY_FILE: file,
    REPLAY_SPEED: '0',
    OPS_PORT: '0',
  })
  t.teardown(() => ingestor.stop())
  await ingestor.waitForLog('ingestor started')
  // a process without an edge still serves its operational endpoints
  const ops = await ingestor.waitForLog('ops endpoints listening')
  t.same(await readJson(await fetch(`http://127.0.0.1:${String(ops.port)}/readyz`)), { ready: true, checks: { bus: true } })
  t.match(await (await fetch(`http://127.0.0.1:${String(ops.port)}/metrics`)).text(), /venue_bus_connected|venue_ticks_ingested_total/)
  t.equal((await fetch(`http://127.0.0.1:${String(ops.port)}/v1/prices`)).status, 404, 'no public routes on the ops port')

  const snapshotOf = async (port: number) => {
    const response = await fetch(`http://127.0.0.1:${port}/v1/prices`)
    return response.status === 200 ? (await readJson(response)).prices : undefined
  }
  const live = await waitFor(
    async () => {
      const rows = await snapshotOf(firstPort)
      return rows?.length === 20 && rows.every((row: { mid: number }, index: number) => row.mid === index + 3.5) ? rows : undefined
    },
    { timeoutMs: 15_000, what: 'the live edge to hold the last row of 20 pairs' },
  )
  t.same(
    live.map((row: { pair: string }) => row.pair),
    PAIRS.slice(0, 20).map((pair) => pair.symbol),
  )
  t.equal(await ingestor.stop(), 0, 'the ingestor exits cleanly on SIGTERM, after writing the latest rows')

  // an edge started after the feed went quiet seeds itself from the key-value bucket
  const laterEdge = startServiceProcess(['edge'], { ...shared, PORT: String(laterPort), HOST: '127.0.0.1' })
  t.teardown(() => laterEdge.stop())
  const seeded = await laterEdge.waitForLog('snapshot seeded from the latest-value store')
  t.equal(seeded.seededPairs, 20)
  await laterEdge.waitForLog('edge listening')
  t.same(await snapshotOf(laterPort), live, 'both edges serve the same rows')
  const status = await readJson(await fetch(`http://127.0.0.1:${laterPort}/v1/status`))
  t.equal(status.prices.pairs, 20)
  t.equal(status.status, 'ok')
})
