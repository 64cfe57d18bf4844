// The pages as a person meets them, in a real Chromium: the live board, the API reference, and REST
// called from a page of another origin (CORS). The service (ingestor and edge) runs from the compiled build,
// as a user's browser meets it, and is restarted as a process.
import t from 'tap'
import { createServer } from 'node:http'
import type { Page } from 'playwright-core'
import { artifactPath, launchChromium } from '../support/browser.ts'
import { freePort } from '../support/servers.ts'
import { serviceProcessStarter, UNUSED_INDEXED_SOURCE } from '../support/service-process.ts'
import { EVENT_DEADLINE_MS, START_DEADLINE_MS } from '../support/wait.ts'

const browser = await launchChromium()
t.teardown(() => browser.close())

const port = await freePort()
const otherOrigin = `http://127.0.0.1:${await freePort()}`
const base = `http://127.0.0.1:${port}`
const startProcess = serviceProcessStarter(t, {
  ...UNUSED_INDEXED_SOURCE,
  PORT: String(port),
  HOST: '127.0.0.1',
  ONBOARDING_ENABLED: 'false',
  STREAM_ALLOWED_ORIGINS: otherOrigin,
})
/** The service's ingestor and edge, once the edge listens. */
const start = async () => {
  const started = startProcess(['edge', 'ingestor'])
  await started.waitForLog('edge listening')
  return started
}
let service = await start()

/** Every request the page makes, to check that nothing leaves the service's own origin. */
const requestsOf = (page: Page) => {
  const urls: string[] = []
  page.on('request', (request) => urls.push(request.url()))
  return urls
}

const updatesOf = (page: Page, pair: string) => page.locator(`tr[data-pair="${pair}"]`).getAttribute('data-updates').then(Number)

t.test('the board shows all 83 pairs, updates, and recovers after the edge restarts', async (t) => {
  const page = await browser.newPage({ viewport: { width: 1400, height: 2400 } })
  t.teardown(() => page.close())
  const requests = requestsOf(page)
  await page.goto(`${base}/`)
  // a page's first render and connection is a start: 10 s ran out once in CI on a loaded 2-core machine
  await page.locator('#connection[data-state=live]').waitFor({ timeout: START_DEADLINE_MS })
  t.equal(await page.locator('tr[data-pair]').count(), 83, '83 pairs')
  t.equal(
    await page
      .locator('tr[data-pair="BTC-USD"] td.mid')
      .textContent()
      .then((text) => /^\d+\.\d+$/.test(text ?? '')),
    true,
    'BTC mid shown',
  )

  // the simulator ticks open pairs many times a second, so BTC's row changes; how soon is a figure, and the wait
  // a hang detector (EVENT_DEADLINE_MS)
  const before = await updatesOf(page, 'BTC-USD')
  const waitedFrom = performance.now()
  const updated = await page
    .waitForFunction((seen) => Number(document.querySelector('tr[data-pair="BTC-USD"]')?.getAttribute('data-updates')) > seen, before, {
      timeout: EVENT_DEADLINE_MS,
    })
    .then(
      () => true,
      () => false,
    )
  const updatedAfterMs = Math.round(performance.now() - waitedFrom)
  t.ok(updated, "BTC's row updates")
  t.comment(`BTC's row updated ${updatedAfterMs} ms after it was read`)
  await page.screenshot({ path: artifactPath('board.png') })

  await service.stop()
  await page.locator('#connection[data-state=reconnecting]').waitFor({ timeout: EVENT_DEADLINE_MS })
  t.match(await page.locator('#events').textContent(), /disconnected with 1001/, 'the close is shown as it happens')
  await page.screenshot({ path: artifactPath('board-disconnected.png') })
  service = await start()
  await page.locator('#connection[data-state=live]').waitFor({ timeout: EVENT_DEADLINE_MS })
  t.equal(await page.locator('#reconnects').textContent(), '1', 'one reconnect counted')
  const afterRestart = await updatesOf(page, 'BTC-USD')
  await page.waitForFunction(
    (seen) => Number(document.querySelector('tr[data-pair="BTC-USD"]')?.getAttribute('data-updates')) > seen,
    afterRestart,
    {
      timeout: EVENT_DEADLINE_MS,
    },
  )
  await page.screenshot({ path: artifactPath('board-reconnected.png') })
  t.same(
    requests.filter((url) => !url.startsWith(base) && !url.startsWith(base.replace('http', 'ws'))),
    [],
    'no request leaves the service',
  )
})

t.test('the docs page renders every operation of the OpenAPI document; the events page every channel', async (t) => {
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } })
  t.teardown(() => page.close())
  const requests = requestsOf(page)
  await page.goto(`${base}/docs`)
  const document = (await (await fetch(`${base}/v1/openapi.json`)).json()) as { paths: Record<string, unknown> }
  const summaries = Object.values(document.paths).flatMap((item) =>
    Object.values(item as Record<string, { summary: string }>).map((operation) => operation.summary),
  )
  t.equal(summaries.length, 25)
  // a start too: the reference's 3.5 MB script took over 20 s once in CI on a loaded 2-core machine
  await page.getByText(summaries[0]!).first().waitFor({ timeout: START_DEADLINE_MS })
  const text = (await page.locator('body').textContent()) ?? ''
  for (const summary of summaries) t.ok(text.includes(summary), `the reference shows "${summary}"`)
  await page.screenshot({ path: artifactPath('docs.png') })
  t.same(
    requests.filter((url) => !url.startsWith(base)),
    [],
    'the renderer loads nothing from elsewhere',
  )

  await page.goto(`${base}/docs/events`)
  const events = (await page.locator('main').textContent()) ?? ''
  for (const address of [
    '/v1/prices/stream',
    '/v1/candles/stream',
    'prices.v1.tick.{pair}',
    'prices.v1.numbered.{pair}',
    '$KV.prices.{pair}',
  ])
    t.ok(events.includes(address), address)
  await page.screenshot({ path: artifactPath('docs-events.png'), fullPage: true })
})

t.test('a page of another origin in the allowlist calls REST and reads the exposed headers; others are refused', async (t) => {
  // the other origin's page: an empty document its script runs in
  const site = createServer((_request, response) =>
    response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>app</title>'),
  )
  await new Promise<void>((resolve) => site.listen(Number(new URL(otherOrigin).port), '127.0.0.1', resolve))
  t.teardown(() => site.close())
  const page = await browser.newPage()
  t.teardown(() => page.close())

  const call = (origin: string) =>
    page.goto(origin).then(() =>
      page.evaluate(async (api) => {
        try {
          const status = await fetch(`${api}/v1/status`)
          // a JSON POST needs a preflight
          const ohlc = await fetch(`${api}/v1/ohlc`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ pair: 'BTC-USD', fromTimestampSeconds: 0, toTimestampSeconds: 4_000_000_000, resolution: '1' }),
          })
          return {
            status: status.status,
            requestId: status.headers.get('x-request-id'),
            remaining: status.headers.get('x-ratelimit-remaining'),
            ohlc: ohlc.status,
          }
        } catch (error) {
          return { refused: String(error) }
        }
      }, base),
    )

  const allowed = await call(otherOrigin)
  t.match(allowed, { status: 200, requestId: /^[0-9a-f-]{36}$/, remaining: /^\d+$/, ohlc: 200 })
  const refused = await call(otherOrigin.replace('127.0.0.1', 'localhost'))
  t.match(refused, { refused: /TypeError: Failed to fetch/ }, 'an origin outside the allowlist cannot read the answer')
})
