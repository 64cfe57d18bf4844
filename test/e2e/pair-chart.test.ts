// The board's pair view in a real Chromium, on a fresh start of the compiled build whose history source
// (HISTORY_URL) is the History API stand-in started here: a pair's name on the board opens its candles, drawn
// from GET /v1/udf/history with a month of history, and another resolution redraws them, its last bar following
// the candle stream; nothing is loaded from elsewhere.

import t from 'tap'
import { startHistoryStandin } from '../../standins/history/index.ts'
import { artifactPath, launchChromium } from '../support/browser.ts'
import { startServiceProcess, UNUSED_INDEXED_SOURCE } from '../support/service-process.ts'
import { MessageLog } from '../support/message-log.ts'
import { EVENT_DEADLINE_MS, START_DEADLINE_MS } from '../support/wait.ts'

const browser = await launchChromium()
t.teardown(() => browser.close())
const history = await startHistoryStandin()
t.teardown(() => history.close())
const service = startServiceProcess(['edge', 'ingestor'], {
  ...UNUSED_INDEXED_SOURCE,
  PORT: '0',
  HOST: '127.0.0.1',
  ONBOARDING_ENABLED: 'false',
  HISTORY_URL: history.channelUrl(),
})
t.teardown(() => service.stop())
const base = `http://127.0.0.1:${Number((await service.waitForLog('edge listening')).port)}`

t.test('a pair on the board opens its chart: a month of hourly candles, then minutes', async (t) => {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } })
  t.teardown(() => page.close())
  const requests: string[] = []
  page.on('request', (request) => requests.push(request.url()))
  // what the page's sockets receive: the candle stream's frames
  const frames = new MessageLog<{ url: string; frame: any }>()
  page.on('websocket', (socket) =>
    socket.on('framereceived', ({ payload }) => frames.push({ url: socket.url(), frame: JSON.parse(String(payload)) })),
  )
  await page.goto(`${base}/`)
  await page.locator('tr[data-pair="BTC-USD"] a').click()
  await page.waitForURL(`${base}/pair?symbol=BTC-USD`)
  const chart = page.locator('#chart[data-resolution="60"]')
  // the page's first render with a month of history: a start (START_DEADLINE_MS), as in browser-pages.test.ts
  await chart.waitFor({ timeout: START_DEADLINE_MS })
  const hours = Number(await chart.getAttribute('data-bars'))
  t.ok(hours >= 720, `${hours} hourly candles`)
  const span = Number(await chart.getAttribute('data-last')) - Number(await chart.getAttribute('data-first'))
  t.ok(span >= 29 * 86_400, 'a month of history')
  t.equal(await page.locator('#chart canvas').count(), 1, 'drawn on a canvas by uPlot')
  t.match(await page.locator('#pair-title').textContent(), /^BTC-USD · BTC \/ USD · around the clock$/)
  // the candles are drawn: the canvas has green and red pixels
  const colours = await page.locator('#chart canvas').evaluate((canvas: HTMLCanvasElement) => {
    const pixels = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data
    const seen = new Set<string>()
    for (let index = 0; index < pixels.length; index += 4) seen.add(`${pixels[index]},${pixels[index + 1]},${pixels[index + 2]}`)
    return { up: seen.has('19,115,51'), down: seen.has('179,38,30') }
  })
  t.strictSame(colours, { up: true, down: true }, 'rising and falling candles')
  await page.screenshot({ path: artifactPath('pair-chart.png') })

  await page.selectOption('#resolution', '1')
  const minutes = page.locator('#chart[data-resolution="1"]')
  await minutes.waitFor({ timeout: EVENT_DEADLINE_MS })
  t.ok(Number(await minutes.getAttribute('data-bars')) >= 170, 'three hours of minutes')
  t.same(
    requests.filter((url) => !url.startsWith(base) && !url.startsWith(base.replace('http', 'ws'))),
    [],
    'no request leaves the service',
  )
  t.ok(requests.some((url) => url.includes('/v1/udf/history?symbol=BTC-USD&resolution=60')))

  // the last bar follows the candle stream; the history is read once per resolution, not polled
  const streamed = await frames.waitFor(
    ({ url, frame }) => url.endsWith('/v1/candles/stream?pairs=BTC-USD&resolution=1&heartbeat=15') && frame.type === 'candle',
    'a streamed minute candle',
  )
  const { time, close } = streamed.frame.data
  await page.waitForFunction(
    ({ time, close }) => {
      const chart = document.querySelector<HTMLElement>('#chart')!
      return (
        Number(chart.dataset.last) > time / 1000 ||
        (Number(chart.dataset.last) === time / 1000 && Number(chart.dataset.lastClose) === close)
      )
    },
    { time, close },
    { timeout: EVENT_DEADLINE_MS },
  )
  t.pass('the streamed candle is the last bar (or an older one)')
  t.equal(requests.filter((url) => url.includes('/v1/udf/history')).length, 2, 'one history read per resolution shown')
})
