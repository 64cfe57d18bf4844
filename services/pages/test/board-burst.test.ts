// The live board under a burst of ticks, in a real Chromium: it must lay its table out once per frame, not
// once per tick. A board that does the latter falls behind the stream (about a hundred ticks a second)
// whenever the browser is short of CPU, and, since Chromium stops reading a WebSocket the page has not
// caught up with, receives every later frame late, the close frame of a stopping edge included.
// A scripted stream serves the page here, so that the test decides how many ticks arrive, and when.
import t from 'tap'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { WebSocketServer, type WebSocket } from 'ws'
import { PAIRS } from '../../../schemas/pairs.ts'
import { syntheticPriceRow } from '../../../schemas/synthetic-price-row.ts'
import type { StatusRecord } from '../../../schemas/price.ts'
import { launchChromium } from '../../../test/support/browser.ts'
import { browserAsset } from '../browser-assets.ts'
import { boardPage } from '../page-html.ts'
import { EVENT_DEADLINE_MS, START_DEADLINE_MS } from '../../../test/support/wait.ts'

const TICKS = 1000
/** a board painting once per frame lays out once a frame, a few dozen times while the burst is read */
const MOST_LAYOUTS = TICKS / 10

const rows = PAIRS.map((pair) => syntheticPriceRow(pair.symbol))
const status = (): StatusRecord => ({
  status: 'ok',
  prices: { pairs: rows.length, stale: false, lastTickAt: Date.now() },
  time: Date.now(),
})
const boardScript = browserAsset('board.js')
const server = createServer((request, response) => {
  const answer = (type: string, body: string | Buffer) => response.writeHead(200, { 'content-type': type }).end(body)
  if (request.url === '/') return answer('text/html; charset=utf-8', boardPage())
  if (request.url === '/assets/board.js') return answer('text/javascript', boardScript())
  if (request.url === '/v1/status') return answer('application/json', JSON.stringify(status()))
  if (request.url === '/v1/prices') return answer('application/json', JSON.stringify({ prices: rows }))
  response.writeHead(404).end()
})
const stream = new WebSocketServer({ server, path: '/v1/prices/stream' })
const sockets: WebSocket[] = []
stream.on('connection', (socket) => {
  socket.send(JSON.stringify({ type: 'snapshot', seq: Object.fromEntries(rows.map((row) => [row.pair, 0])), data: rows }))
  sockets.push(socket)
})
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
t.teardown(() => {
  stream.close()
  server.close()
})
const browser = await launchChromium()
t.teardown(() => browser.close())

t.test(`${TICKS} ticks of one pair at once: each counted, the last shown, the table laid out once per frame`, async (t) => {
  const page = await browser.newPage({ viewport: { width: 1400, height: 2400 } })
  t.teardown(() => page.close())
  const devtools = await page.context().newCDPSession(page)
  await devtools.send('Performance.enable')
  const layouts = async () => (await devtools.send('Performance.getMetrics')).metrics.find((metric) => metric.name === 'LayoutCount')!.value

  await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`)
  // the page's first render and connection: a start, as in test/e2e/browser-pages.test.ts
  await page.locator('#connection[data-state=live]').waitFor({ timeout: START_DEADLINE_MS })
  t.equal(sockets.length, 1, 'one connection')
  const layoutsBefore = await layouts()

  const lastMid = 100 + TICKS / 100
  for (let seq = 1; seq <= TICKS; seq++) {
    sockets[0]!.send(JSON.stringify({ type: 'tick', seq, data: syntheticPriceRow('BTC-USD', { mid: 100 + seq / 100 }) }))
  }
  await page.waitForFunction(
    (ticks) => document.querySelector('tr[data-pair="BTC-USD"]')?.getAttribute('data-updates') === String(ticks),
    TICKS,
    {
      timeout: EVENT_DEADLINE_MS,
    },
  )
  const laidOut = (await layouts()) - layoutsBefore
  t.comment(`${laidOut} layouts for ${TICKS} ticks`)
  t.ok(laidOut < MOST_LAYOUTS, `fewer than ${MOST_LAYOUTS} layouts for ${TICKS} ticks`)
  t.equal(await page.locator('tr[data-pair="BTC-USD"] td.mid').textContent(), lastMid.toFixed(4), 'the last tick is shown')
  t.equal(await page.locator('#gaps').textContent(), '0', 'no tick taken for lost')
})
