import t from 'tap'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PAIRS } from '../../../schemas/pairs.ts'
import { waitFor } from '../../../test/support/wait.ts'
import type { FeedSink, UpstreamQuote } from '../sources/feed-source.ts'
import { replaySource } from '../sources/replay-source.ts'
import { simulatorSource } from '../sources/simulator-source.ts'

function collectingSink() {
  const quotes: UpstreamQuote[] = []
  const malformed: Array<[string, Record<string, unknown> | undefined]> = []
  const sink: FeedSink = { quote: (quote) => quotes.push(quote), malformed: (reason, detail) => malformed.push([reason, detail]) }
  return { sink, quotes, malformed }
}

t.test('simulator: a price for every pair at once, then random walks of open pairs with bid < mid < ask at the set rate', async (t) => {
  const { sink, quotes } = collectingSink()
  const closed = new Set([5, 7])
  const source = simulatorSource({ ticksPerSecond: 2000, seed: 7, isTrading: (pairId) => !closed.has(pairId), intervalMs: 5 })
  const startedAt = Date.now()
  source.start(sink)
  t.equal(quotes.length, PAIRS.length, 'one opening quote per pair, closed ones included')
  await waitFor(() => quotes.length >= 83 + 400, { what: '400 simulated ticks' })
  await source.stop()
  const elapsedSeconds = (Date.now() - startedAt) / 1000
  t.ok(quotes.length - 83 <= 2000 * elapsedSeconds + 50, 'no faster than the configured rate')
  const walked = quotes.slice(83)
  t.notOk(
    walked.some((quote) => quote.pair === 'XAU-USD' || quote.pair === 'WTI-USD'),
    'closed markets stay silent after their opening price',
  )
  for (const quote of quotes) {
    if (!(quote.bid < quote.mid && quote.mid < quote.ask)) t.fail(`crossed quote ${JSON.stringify(quote)}`)
  }
  const btc = quotes.filter((quote) => quote.pair === 'BTC-USD').map((quote) => quote.mid)
  t.ok(btc[0]! > 80_000 && btc[0]! < 110_000, 'realistic starting price')
  const spreadBps = ((quotes[0]!.ask - quotes[0]!.bid) / quotes[0]!.mid) * 10_000
  t.ok(Math.abs(spreadBps - 2) < 1e-9, 'crypto spread of 2 bps')
})

t.test('simulator: the same seed gives the same walk', async (t) => {
  const runs = [collectingSink(), collectingSink()]
  for (const run of runs) {
    const source = simulatorSource({ ticksPerSecond: 0, seed: 42, isTrading: () => true, now: () => 1_795_000_000_000 })
    source.start(run.sink)
    await source.stop()
  }
  t.same(runs[0]!.quotes, runs[1]!.quotes)
})

t.test('replay: every line as fast as possible, malformed lines reported with their line numbers', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'replay-'))
  const file = join(dir, 'ticks.jsonl')
  writeFileSync(
    file,
    [
      JSON.stringify({ pair: 'BTC-USD', bid: 1, mid: 2, ask: 3, timestampSeconds: 100, feed_id: '0xfeed' }),
      '{not json',
      JSON.stringify({ pair: 'ETH-USD', bid: 'x', mid: 2, ask: 3, timestampSeconds: 101 }),
      '',
      JSON.stringify({ pair: 'ETH-USD', bid: 4, mid: 5, ask: 6, timestampSeconds: 5000 }),
    ].join('\n'),
  )
  const { sink, quotes, malformed } = collectingSink()
  let ended = false
  const source = replaySource({ file, speed: 0, loop: false, onEnd: () => (ended = true) })
  source.start(sink)
  await waitFor(() => ended, { what: 'end of replay' })
  await source.stop()
  t.same(
    quotes.map((quote) => [quote.pair, quote.mid, quote.publishTimeSeconds, quote.feedId.slice(0, 6)]),
    [
      ['BTC-USD', 2, 100, '0xfeed'],
      ['ETH-USD', 5, 5000, quotes[1]!.feedId.slice(0, 6)],
    ],
  )
  t.same(malformed, [
    ['invalid_json', { file, line: 2 }],
    ['invalid_shape', { file, line: 3 }],
  ])
})

t.test('replay: paced by the recorded times at the chosen speed', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'replay-'))
  const file = join(dir, 'ticks.jsonl')
  const line = (atMs: number) => JSON.stringify({ pair: 'BTC-USD', bid: 1, mid: 2, ask: 3, timestampSeconds: 100, atMs })
  writeFileSync(file, [line(0), line(1000), line(2000)].join('\n'))
  const { sink, quotes } = collectingSink()
  const arrivals: number[] = []
  const started = Date.now()
  const source = replaySource({ file, speed: 10, loop: false })
  source.start({ ...sink, quote: (quote) => (quotes.push(quote), arrivals.push(Date.now() - started)) })
  await waitFor(() => quotes.length === 3, { what: 'three paced ticks' })
  await source.stop()
  t.ok(arrivals[1]! >= 95 && arrivals[2]! >= 195, `recorded 1 s steps replayed 10x faster (${arrivals.join(', ')} ms)`)
  t.ok(arrivals[2]! < 1500, 'not at recorded speed')
})
