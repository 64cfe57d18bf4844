/// <reference lib="dom" />
// The board's pair view: one pair's candles from our TradingView datafeed (GET /v1/udf/symbols and
// /v1/udf/history), drawn by uPlot as candles, at a resolution the reader picks; the candle stream
// (/v1/candles/stream, through the client's subscribeBars) then updates the last bar and adds the next ones.
// Bundled for the browser with uPlot by the build (scripts/build-browser-assets.ts).
import uPlot from 'uplot'
import { subscribeBars, type Bar } from '../../../client/src/subscribe-bars.ts'
import type { UdfHistory, UdfResolution, UdfSymbolInfo } from '../../../schemas/udf.ts'

type Bars = { t: number[]; o: number[]; h: number[]; l: number[]; c: number[] }

/** How many bars each resolution shows: a month of hours, three days of minutes, a year of days. */
const SPAN_SECONDS: Record<UdfResolution, number> = {
  '1': 3 * 3600,
  '5': 2 * 86_400,
  '15': 5 * 86_400,
  '60': 30 * 86_400,
  '240': 90 * 86_400,
  '1D': 365 * 86_400,
}

const chart = document.querySelector<HTMLElement>('#chart')!
const title = document.querySelector<HTMLElement>('#pair-title')!
const note = document.querySelector<HTMLElement>('#chart-note')!
const picker = document.querySelector<HTMLSelectElement>('#resolution')!
const symbol = new URLSearchParams(location.search).get('symbol') ?? 'BTC-USD'

const getJson = async <T>(path: string): Promise<T> => {
  const response = await fetch(path, { cache: 'no-store' })
  const body = (await response.json()) as T | { s: 'error'; errmsg: string }
  if (typeof body === 'object' && body !== null && 's' in body && body.s === 'error') throw new Error(body.errmsg)
  return body as T
}

/** Candles drawn on the plot's canvas: a wick from low to high, a body from open to close, green up, red down. */
function candlePlugin(bars: () => Bars): uPlot.Plugin {
  return {
    hooks: {
      draw: (plot) => {
        const { ctx } = plot
        const { t, o, h, l, c } = bars()
        const [first, last] = [plot.series[0]!.idxs?.[0] ?? 0, plot.series[0]!.idxs?.[1] ?? t.length - 1]
        const spacing = t.length > 1 ? plot.valToPos(t[1]!, 'x', true) - plot.valToPos(t[0]!, 'x', true) : 10
        const width = Math.max(1, Math.min(12, spacing * 0.7))
        ctx.save()
        for (let index = first; index <= last; index++) {
          const x = plot.valToPos(t[index]!, 'x', true)
          const [open, close] = [plot.valToPos(o[index]!, 'y', true), plot.valToPos(c[index]!, 'y', true)]
          ctx.fillStyle = ctx.strokeStyle = c[index]! >= o[index]! ? '#137333' : '#b3261e'
          ctx.beginPath()
          ctx.moveTo(x, plot.valToPos(h[index]!, 'y', true))
          ctx.lineTo(x, plot.valToPos(l[index]!, 'y', true))
          ctx.stroke()
          ctx.fillRect(x - width / 2, Math.min(open, close), width, Math.max(1, Math.abs(close - open)))
        }
        ctx.restore()
      },
    },
  }
}

let info: UdfSymbolInfo
let bars: Bars = { t: [], o: [], h: [], l: [], c: [] }
let plot: uPlot | undefined

const decimals = () => Math.round(Math.log10(info.pricescale))

/** A streamed bar: the last one updated, or a newer one added (history and stream may overlap by a bar). */
function apply(bar: Bar) {
  const time = bar.time / 1000
  const last = bars.t.length - 1
  if (last >= 0 && time < bars.t[last]!) return
  const at = last >= 0 && time === bars.t[last] ? last : bars.t.length
  bars.t[at] = time
  bars.o[at] = bar.open
  bars.h[at] = bar.high
  bars.l[at] = bar.low
  bars.c[at] = bar.close
  plot?.setData([bars.t, bars.c])
  mark()
}

/** What the page shows, as attributes (its tests read them). */
function mark() {
  chart.dataset.bars = String(bars.t.length)
  chart.dataset.first = String(bars.t[0] ?? '')
  chart.dataset.last = String(bars.t.at(-1) ?? '')
  chart.dataset.lastClose = String(bars.c.at(-1) ?? '')
  chart.dataset.resolution = picker.value
}

function draw() {
  plot?.destroy()
  const digits = decimals()
  plot = new uPlot(
    {
      width: Math.min(1200, document.body.clientWidth - 32),
      height: 480,
      scales: { x: { time: true } },
      series: [{}, { label: 'close', stroke: 'transparent', value: (_plot, value) => (value == null ? '—' : value.toFixed(digits)) }],
      axes: [{}, { values: (_plot, ticks) => ticks.map((tick) => tick.toFixed(digits)), size: 80 }],
      plugins: [candlePlugin(() => bars)],
    },
    [bars.t, bars.c],
    chart,
  )
  mark()
}

async function load(resolution: UdfResolution) {
  const to = Math.floor(Date.now() / 1000) + 60
  const answer = await getJson<UdfHistory>(
    `/v1/udf/history?symbol=${encodeURIComponent(info.ticker)}&resolution=${resolution}&from=${to - SPAN_SECONDS[resolution]}&to=${to}`,
  )
  bars = answer.s === 'ok' ? answer : { t: [], o: [], h: [], l: [], c: [] }
  note.textContent =
    answer.s === 'ok'
      ? `${bars.t.length} bars of mid prices, ${new Date(bars.t[0]! * 1000).toLocaleString()} to ${new Date(bars.t.at(-1)! * 1000).toLocaleString()}`
      : 'no bars in this range'
  draw()
}

/** Loads the history once, then applies streamed bars; bars missed (a gap, a reconnection) load it again. */
function follow(resolution: UdfResolution): () => void {
  const reload = () => void load(resolution).catch(show)
  let loaded = false
  const early: Bar[] = []
  const unsubscribe = subscribeBars(
    // heartbeats keep a quiet pair's connection (a closed market) apart from a dead one, which is dropped and reopened
    { baseUrl: location.origin, onError: show, heartbeatSeconds: 15 },
    info.ticker,
    resolution,
    (bar) => (loaded ? apply(bar) : early.push(bar)),
    reload,
  )
  // bars streamed before the history arrived are applied on top of it
  load(resolution)
    .then(() => {
      loaded = true
      for (const bar of early.splice(0)) apply(bar)
    })
    .catch(show)
  return unsubscribe
}

const show = (error: unknown) => {
  note.textContent = `cannot load the chart: ${error instanceof Error ? error.message : String(error)}`
  note.className = 'error'
}

try {
  info = await getJson<UdfSymbolInfo>(`/v1/udf/symbols?symbol=${encodeURIComponent(symbol)}`)
  document.title = `${info.name} candles`
  title.textContent = `${info.name} · ${info.description} · ${info.session === '24x7' ? 'around the clock' : `${info.session} (${info.timezone})`}`
  let unsubscribe = follow(picker.value as UdfResolution)
  picker.addEventListener('change', () => {
    unsubscribe()
    unsubscribe = follow(picker.value as UdfResolution)
  })
} catch (error) {
  show(error)
}
