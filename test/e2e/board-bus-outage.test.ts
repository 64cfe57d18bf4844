// The live board through a bus outage, in a real Chromium: the stream has no frame for one (its sockets
// stay open and fall quiet), so the board polls GET /v1/status, shows a banner while the feed is
// degraded, and clears it and re-reads every price when the bus returns. The service (ingestor and edge) runs
// from the compiled build on a nats-server the test stops and starts again.
import t from 'tap'
import { randomUUID } from 'node:crypto'
import { artifactPath, launchChromium } from '../support/browser.ts'
import { freePort, startNats } from '../support/servers.ts'
import { startServiceProcess, UNUSED_INDEXED_SOURCE } from '../support/service-process.ts'
import { EVENT_DEADLINE_MS, START_DEADLINE_MS } from '../support/wait.ts'

/**
 * Hang detectors. The board checks the status every 5 s and the edge says degraded within a fraction of a
 * second, so the banner comes within about 5 s; when the bus returns, its client retries every 0.5 s, ticks flow
 * and the next check sees ok, within about 5.5 s. 20 s is over 3 times either.
 */
const BANNER_DEADLINE_MS = 20_000
const CLEARED_DEADLINE_MS = 20_000

const nats = await startNats()
t.teardown(() => nats.dispose())
const browser = await launchChromium()
t.teardown(() => browser.close())

const port = await freePort()
const base = `http://127.0.0.1:${port}`
const service = startServiceProcess(['edge', 'ingestor'], {
  ...UNUSED_INDEXED_SOURCE,
  PORT: String(port),
  HOST: '127.0.0.1',
  ONBOARDING_ENABLED: 'false',
  NATS_URL: nats.url,
  BUS_NAMESPACE: `board${randomUUID().slice(0, 8)}`,
})
t.teardown(() => service.stop())
await service.waitForLog('edge listening')

t.test('NATS stopped: the board shows the outage while its stream stays connected; NATS back: it clears', async (t) => {
  const page = await browser.newPage({ viewport: { width: 1400, height: 1200 } })
  t.teardown(() => page.close())
  await page.goto(`${base}/`)
  // the page's first render and connection: a start (START_DEADLINE_MS), as in browser-pages.test.ts
  await page.locator('#connection[data-state=live]').waitFor({ timeout: START_DEADLINE_MS })
  await page.locator('#feed[data-state=ok]').waitFor({ timeout: EVENT_DEADLINE_MS })
  t.equal(await page.locator('#outage').isHidden(), true, 'no banner while the feed is ok')

  await nats.stop()
  const stoppedAt = Date.now()
  await page.locator('#outage').waitFor({ state: 'visible', timeout: BANNER_DEADLINE_MS })
  t.comment(`banner shown ${Date.now() - stoppedAt} ms after NATS stopped`)
  t.equal(await page.locator('#feed').getAttribute('data-state'), 'degraded')
  t.equal(await page.locator('#outage strong').textContent(), 'Prices are not live: the feed is degraded')
  t.match(
    await page.locator('#outage-since').textContent(),
    /^No tick has reached this service since \d{1,2}:\d{2}:\d{2}.* \(\d+ s ago\): its price feed or its message bus is down\.$/,
    'since when',
  )
  t.match(await page.locator('#outage-affected').textContent(), /^Affected: all 83 priced pairs show their last prices/, 'what is affected')
  t.match(await page.locator('#events').textContent(), /feed degraded: prices are not live/, 'the change is in the event list')
  t.equal(await page.locator('#connection').getAttribute('data-state'), 'live', 'the stream stays connected')
  t.equal(await page.locator('#reconnects').textContent(), '0', 'without reconnecting')
  await page.screenshot({ path: artifactPath('board-bus-outage.png') })

  // a board opened before the ingestor's first tick has seen the feed degraded and back already, and re-read the
  // prices then (counted here, seconds after that re-read's request): the outage's re-read is the one after those
  const outageReread = page.locator('#events li.recovered', { hasText: 're-read 83 prices after the outage' })
  const rereadsBeforeOutage = await outageReread.count()
  await nats.start()
  const restartedAt = Date.now()
  await page.locator('#outage').waitFor({ state: 'hidden', timeout: CLEARED_DEADLINE_MS })
  t.comment(`banner cleared ${Date.now() - restartedAt} ms after NATS returned`)
  t.equal(await page.locator('#feed').getAttribute('data-state'), 'ok')
  await outageReread.nth(rereadsBeforeOutage).waitFor({ timeout: CLEARED_DEADLINE_MS })
  t.equal(await outageReread.count(), rereadsBeforeOutage + 1, 'one re-read for the outage')
  // the ticks published while the edge was off the bus are announced by gaps (docs/stream.md, the loss
  // contract), and the client re-reads on those too: at least once, for the outage
  t.ok(Number(await page.locator('#rereads').textContent()) >= 1, 'the prices re-read')
  t.equal(await page.locator('#reconnects').textContent(), '0', 'the same connection throughout')
  const updates = Number(await page.locator('tr[data-pair="BTC-USD"]').getAttribute('data-updates'))
  await page.waitForFunction(
    (seen) => Number(document.querySelector('tr[data-pair="BTC-USD"]')?.getAttribute('data-updates')) > seen,
    updates,
    { timeout: EVENT_DEADLINE_MS },
  )
  await page.screenshot({ path: artifactPath('board-bus-back.png') })
})
