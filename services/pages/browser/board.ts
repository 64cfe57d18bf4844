/// <reference lib="dom" />
// The live board: every pair with bid, mid, ask, its market state and the age of its last tick, fed by
// the stream client, and a banner while the feed is degraded (from GET /v1/status: the stream has no
// frame for an outage). Bundled for the browser by the edge (services/pages/bundle.ts).
import { PriceStreamClient, type Loss } from '../../../client/src/price-stream-client.ts'
import type { PriceRow } from '../../../client/src/stream-frames.ts'
import { PAIRS } from '../../../schemas/pairs.ts'
import type { PriceSnapshot, StatusRecord } from '../../../schemas/price.ts'
import { oncePerFrame } from './once-per-frame.ts'
import { watchStatus } from './status-watch.ts'

const byId = (id: string) => document.querySelector<HTMLElement>(`#${id}`)!
const table = document.querySelector<HTMLTableSectionElement>('#pairs tbody')!
const connection = byId('connection')
const counters = { reconnects: byId('reconnects'), gaps: byId('gaps'), rereads: byId('rereads') }
const events = document.querySelector<HTMLOListElement>('#events')!
const feed = byId('feed')
const outage = { banner: byId('outage'), since: byId('outage-since'), affected: byId('outage-affected') }

interface Line {
  row: HTMLTableRowElement
  cells: Record<'bid' | 'mid' | 'ask' | 'market' | 'age', HTMLTableCellElement>
  updates: number
  price?: PriceRow
  flash?: Animation
}

const lines = new Map<string, Line>()
for (const pair of PAIRS) {
  const row = table.insertRow()
  row.dataset.pair = pair.symbol
  row.dataset.updates = '0'
  // the pair's name opens its candles (the pair view)
  const link = document.createElement('a')
  link.href = `/pair?symbol=${pair.symbol}`
  link.textContent = pair.symbol
  row.insertCell().append(link)
  const cell = (name: string) => {
    const created = row.insertCell()
    created.className = name
    created.textContent = '—'
    return created
  }
  lines.set(pair.symbol, {
    row,
    cells: { bid: cell('bid'), mid: cell('mid'), ask: cell('ask'), market: cell('market'), age: cell('age') },
    updates: 0,
  })
}

const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun']
/** The row's schedule as a tooltip: `Mon 0930-1600 · … (America/New_York)`. */
const weeklyHours = ({ openingHours, timezone }: PriceRow['schedule']) =>
  `${openingHours.map((entry, day) => `${WEEKDAYS[day]} ${entry}`).join(' · ')} (${timezone})`

const digits = (value: number) => (value >= 1000 ? 2 : value >= 1 ? 4 : 6)
/** writes a line's latest row and its tick count into its row of the table */
const paint = (line: Line) => {
  const row = line.price!
  for (const side of ['bid', 'mid', 'ask'] as const) line.cells[side].textContent = row[side].toFixed(digits(row.mid))
  line.cells.market.textContent = row.isMarketOpen ? (row.isDayTradingClosed ? 'open (no day trades)' : 'open') : 'closed'
  line.row.dataset.market = row.isMarketOpen ? 'open' : 'closed'
  line.cells.market.title = weeklyHours(row.schedule)
  line.row.dataset.mid = String(row.mid)
  line.row.dataset.updates = String(line.updates)
}
/** highlights a row that ticked; an animation object restarts without the forced layout a CSS class needs */
const FLASH: Keyframe[] = [{ backgroundColor: '#fff3b0' }, { backgroundColor: 'transparent' }]
const flash = (line: Line) => {
  line.flash?.cancel()
  line.flash = line.row.animate(FLASH, { duration: 800, easing: 'ease-out' })
}
/** ticks are painted once per frame, each ticked line with its latest row */
const ticked = oncePerFrame<Line>(
  (ticks) => {
    for (const line of ticks) {
      paint(line)
      flash(line)
    }
  },
  (callback) => requestAnimationFrame(callback),
)
/** a tick waits for the next frame; a snapshot's or a re-read's rows are painted at once, so that the page is whole when it says live */
const show = (row: PriceRow, fromTick: boolean) => {
  const line = lines.get(row.pair)
  if (!line) return
  line.price = row
  if (!fromTick) return paint(line)
  line.updates++
  ticked(line)
}

const note = (text: string, kind: string) => {
  const item = document.createElement('li')
  item.className = kind
  item.textContent = `${new Date().toLocaleTimeString()} ${text}`
  events.prepend(item)
  while (events.children.length > 50) events.lastElementChild!.remove()
}
const count = (counter: HTMLElement, by = 1) => (counter.textContent = String(Number(counter.textContent) + by))
const setState = (state: 'connecting' | 'live' | 'reconnecting', text: string) => {
  connection.dataset.state = state
  connection.textContent = text
}

const clockTime = (epochMs: number) => new Date(epochMs).toLocaleTimeString()

/** the latest degraded status record and when it arrived: its ages are counted on the service's clock */
let degraded: { record: StatusRecord; receivedAt: number } | undefined
const describeOutage = () => {
  if (!degraded) return
  const { record, receivedAt } = degraded
  const { lastTickAt, pairs } = record.prices
  const quietSeconds = Math.round((record.time + Date.now() - receivedAt - lastTickAt) / 1000)
  outage.since.textContent =
    lastTickAt === 0
      ? 'No tick has reached this service yet.'
      : `No tick has reached this service since ${clockTime(lastTickAt)} (${quietSeconds} s ago): its price feed or its message bus is down.`
  outage.affected.textContent = `Affected: all ${pairs} priced pairs show their last prices, which may be out of date. The stream stays connected but delivers no ticks until the feed returns; the board then re-reads every price.`
}

const rereadPrices = async () => {
  const response = await fetch('/v1/prices', { cache: 'no-store' })
  if (response.status !== 200) return note(`GET /v1/prices answered ${response.status}`, 'error')
  const { prices } = (await response.json()) as PriceSnapshot
  count(counters.rereads)
  for (const row of prices) show(row, false)
  note(`re-read ${prices.length} prices after the outage`, 'recovered')
}

const showStatus = (record: StatusRecord) => {
  const previous = feed.dataset.state
  feed.dataset.state = record.status
  feed.textContent = record.status
  document.body.dataset.feed = record.status
  outage.banner.hidden = record.status === 'ok'
  if (record.status === 'degraded') {
    degraded = { record, receivedAt: Date.now() }
    describeOutage()
    if (previous !== 'degraded') note('feed degraded: prices are not live', 'loss')
    return
  }
  degraded = undefined
  if (previous === 'degraded') {
    note('feed ok again', 'recovered')
    rereadPrices().catch((error: unknown) => note(`re-reading prices failed: ${String(error)}`, 'error'))
  }
}

/** a failed check is noted once until one succeeds again; the feed keeps its last known state meanwhile */
let lastFailure: string | undefined
const status = watchStatus({
  status(record) {
    lastFailure = undefined
    showStatus(record)
  },
  failed(reason) {
    if (reason !== lastFailure) note(reason, 'error')
    lastFailure = reason
  },
})

let everConnected = false
const client = new PriceStreamClient({ baseUrl: location.origin, backoff: { initialMs: 250, maxMs: 5000 } })
client.on('snapshot', (rows) => {
  if (everConnected) count(counters.reconnects)
  everConnected = true
  for (const row of rows) show(row, false)
  setState('live', `live: ${rows.length} prices`)
  note(`snapshot of ${rows.length} prices`, 'snapshot')
  status.checkNow()
})
client.on('price', (row) => show(row, true))
client.on('loss', (loss: Loss) => {
  count(counters.gaps)
  note(loss.reason === 'gap' ? `gap: ${loss.dropped} ticks dropped` : `seq jump on ${loss.pair}: ${loss.dropped} missed`, 'loss')
})
client.on('recovered', (rows) => {
  count(counters.rereads)
  for (const row of rows) show(row, false)
  note(`re-read ${rows.length} prices`, 'recovered')
})
client.on('disconnected', ({ code, retryInMs }) => {
  setState('reconnecting', retryInMs === undefined ? `closed (${code})` : `disconnected (${code}); retrying in ${Math.round(retryInMs)} ms`)
  note(`disconnected with ${code}`, 'disconnected')
})
client.on('error', (error) => note(error.message, 'error'))
client.start()

setInterval(() => {
  const now = Date.now() / 1000
  for (const line of lines.values()) {
    if (line.price) line.cells.age.textContent = `${Math.max(0, Math.round(now - line.price.timestampSeconds))} s`
  }
  describeOutage()
}, 500)
