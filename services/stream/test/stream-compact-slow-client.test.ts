// The slow-client rule on a connection of compact frames: a paused reader's ticks above the limit are dropped
// and counted by its next gap, as with full rows, and the static parts that changed while it lagged come
// after that gap, so every tick it gets afterwards rebuilds to the row that was published.
import t from 'tap'
import { pairBySymbol } from '../../../schemas/pairs.ts'
import type { PriceRow } from '../../../schemas/price.ts'
import { startTestEdge } from '../../../test/support/edge-harness.ts'
import { metricValue } from '../../../test/support/metrics.ts'
import { priceRow, rowBytes } from '../../../test/support/price-rows.ts'
import { RawStreamClient } from '../../../test/support/raw-ws.ts'
import { openStream, publishUntilLagging } from '../../../test/support/stream-clients.ts'
import { waitFor } from '../../../test/support/wait.ts'

const BTC = pairBySymbol('BTC-USD')!.id

t.test('compact: a gap with the exact count after lagging, then the static part that changed meanwhile, then its ticks', async (t) => {
  const edge = await startTestEdge()
  t.teardown(edge.stop)
  const query = `?pairs=BTC-USD&format=compact`
  const paused = await RawStreamClient.connect(edge.streamUrl + query)
  const reader = await openStream(edge.streamUrl + query)
  t.teardown(() => (paused.destroy(), reader.socket.terminate()))
  await paused.frames.waitFor((frame) => frame.json?.type === 'snapshot', 'snapshot')
  paused.pause()

  // until `settled`, every tick changes the static part (the schedule's padded time zone), so each is a 2 KB
  // static frame and a tick and the buffer fills in few ticks; the last change is while the reader lags, and
  // only the static part sent after its gap tells it
  const published: string[] = []
  let settled = false
  const publish = (count: number) => {
    for (let index = 0; index < count; index++) {
      const { schedule } = priceRow('BTC-USD')
      const seq = published.length + 1
      const timezone = `UTC${' '.repeat(2000)}${settled ? 'settled' : seq}`
      const row = rowBytes(priceRow('BTC-USD', { mid: seq, schedule: { ...schedule, timezone } }))
      published.push(row.toString())
      edge.bus.publishTick('BTC-USD', row)
    }
  }
  await publishUntilLagging(
    edge,
    async () => {
      publish(100)
      await reader.messages.waitFor((message) => message.seq === published.length, 'the reading client to keep up', { timeoutMs: 20_000 })
    },
    { timeoutMs: 40_000 },
  )
  publish(25)
  settled = true
  publish(1)
  const publishedWhilePaused = published.length

  paused.resume()
  await paused.frames.waitFor((frame) => frame.json?.type === 'gap', 'the gap', { timeoutMs: 20_000 })
  await waitFor(
    () => {
      if (paused.messages.some((message) => message.type === 't' && message.seq > publishedWhilePaused)) return true
      publish(1)
      return false
    },
    { what: 'a tick published after the resume to arrive' },
  )
  const accounted = () =>
    paused.messages.slice(1).reduce((sum, frame) => sum + (frame.type === 'gap' ? frame.dropped : frame.type === 't' ? 1 : 0), 0)
  await paused.frames.until(() => accounted() === published.length || undefined, 'every tick to be delivered or announced')

  const frames = paused.messages.slice(1)
  const mismatches: string[] = []
  let lastSeq = 0
  let announced = 0
  let statics: Record<string, unknown> | undefined
  for (const frame of frames) {
    if (frame.type === 'static') statics = frame.data
    if (frame.type === 'gap') announced += frame.dropped
    if (frame.type !== 't') continue
    if (frame.seq !== lastSeq + announced + 1) mismatches.push(`seq ${frame.seq} after ${lastSeq} and gaps of ${announced}`)
    const [bid, mid, ask, flags, secondsToToggleIsDayTradingClosed, timestampSeconds] = frame.d as number[]
    const { feed_id, pair, from, to, schedule } = statics as PriceRow
    const row = { feed_id, pair, from, to, bid, mid, ask, isMarketOpen: (flags! & 1) === 1, isDayTradingClosed: (flags! & 2) === 2 }
    const rebuilt = JSON.stringify({ ...row, secondsToToggleIsDayTradingClosed, timestampSeconds, schedule })
    if (frame.p !== BTC || rebuilt !== published[frame.seq - 1]) mismatches.push(`seq ${frame.seq} rebuilt to another row`)
    lastSeq = frame.seq
    announced = 0
  }
  t.same(mismatches, [], 'each seq jumps by exactly the count its gaps dropped, and every tick rebuilds to the row published')
  const firstGap = frames.findIndex((frame) => frame.type === 'gap')
  t.ok(frames[firstGap].dropped >= 25, 'the ticks published while it lagged were dropped')
  t.equal(frames[firstGap + 1].type, 'static', 'the static part that changed while it lagged, right after the gap')
  t.match(frames[firstGap + 1].data.schedule.timezone, /settled$/)
  const dropped = frames.filter((frame) => frame.type === 'gap').reduce((sum, frame) => sum + frame.dropped, 0)
  t.equal(await metricValue(edge.metrics.streamDroppedTicks), dropped)
  t.equal(await metricValue(edge.metrics.streamLaggingConnections), 0)
})
