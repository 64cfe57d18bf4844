// One contract for every CandleStore: the memory store must behave as the Redis one does.
import type { Test } from 'tap'
import type { Candle } from '../candle.ts'
import type { CandleStore } from '../candle-store.ts'

export interface OpenedStore {
  store: CandleStore
  close(): Promise<void>
}

/** Opens a fresh, empty store (its own key prefix) keeping `keepPerResolution` candles per pair and resolution. */
export type OpenStore = (options: { keepPerResolution: number }) => Promise<OpenedStore>

/** Monday 2026-03-02 00:00 UTC. */
const DAY = Date.UTC(2026, 2, 2) / 1000
const ALL = [0, 4_000_000_000] as const

function candle(time: number, open: number, openAt: number, high: number, low: number, close: number, closeAt: number): Candle {
  return { time, open, openAt, high, low, close, closeAt }
}

export function candleStoreContract(t: Test, openStore: OpenStore): void {
  const open = async (t: Test, keepPerResolution = 1000) => {
    const opened = await openStore({ keepPerResolution })
    t.teardown(opened.close)
    return opened.store
  }

  t.test('minute candles are merged into the candles of every resolution', async (t) => {
    const store = await open(t)
    const minutes = [
      candle(DAY, 100, DAY + 5, 105, 99, 101, DAY + 50),
      candle(DAY + 60, 101, DAY + 61, 103, 100, 102, DAY + 119),
      candle(DAY + 300, 110, DAY + 300, 111, 108, 109, DAY + 359),
      candle(DAY + 5 * 3600, 120, DAY + 5 * 3600 + 1, 121, 119, 120.5, DAY + 5 * 3600 + 2),
      candle(DAY + 86_400 + 60, 90, DAY + 86_400 + 60, 90, 80, 85, DAY + 86_400 + 70),
    ]
    await store.merge('BTC-USD', minutes.slice(0, 2))
    await store.merge('BTC-USD', minutes.slice(2))
    const read = (resolution: '1' | '5' | '15' | '60' | '240' | '1D') => store.read('BTC-USD', resolution, ...ALL, 100)
    t.strictSame(await read('1'), minutes)
    t.strictSame(await read('5'), [
      candle(DAY, 100, DAY + 5, 105, 99, 102, DAY + 119),
      candle(DAY + 300, 110, DAY + 300, 111, 108, 109, DAY + 359),
      { ...minutes[3]!, time: DAY + 5 * 3600 },
      { ...minutes[4]!, time: DAY + 86_400 },
    ])
    t.strictSame(await read('15'), [
      candle(DAY, 100, DAY + 5, 111, 99, 109, DAY + 359),
      { ...minutes[3]!, time: DAY + 5 * 3600 },
      { ...minutes[4]!, time: DAY + 86_400 },
    ])
    t.strictSame(await read('60'), [
      candle(DAY, 100, DAY + 5, 111, 99, 109, DAY + 359),
      { ...minutes[3]!, time: DAY + 5 * 3600 },
      { ...minutes[4]!, time: DAY + 86_400 },
    ])
    t.strictSame(await read('240'), [
      candle(DAY, 100, DAY + 5, 111, 99, 109, DAY + 359),
      { ...minutes[3]!, time: DAY + 4 * 3600 },
      { ...minutes[4]!, time: DAY + 86_400 },
    ])
    t.strictSame(await read('1D'), [candle(DAY, 100, DAY + 5, 121, 99, 120.5, DAY + 5 * 3600 + 2), { ...minutes[4]!, time: DAY + 86_400 }])
  })

  t.test('arrival order does not matter; on a tie the stored open stays and the arriving close wins', async (t) => {
    const store = await open(t)
    await store.merge('ETH-USD', [candle(DAY, 2, DAY + 30, 2, 2, 2, DAY + 30)])
    await store.merge('ETH-USD', [candle(DAY, 1, DAY + 10, 1, 1, 1, DAY + 10)])
    t.strictSame(await store.read('ETH-USD', '1', ...ALL, 10), [candle(DAY, 1, DAY + 10, 2, 1, 2, DAY + 30)], 'a late, earlier tick opens')
    const tie = candle(DAY, 9, DAY + 10, 9, 0.5, 7, DAY + 30)
    await store.merge('ETH-USD', [tie])
    const afterTie = [candle(DAY, 1, DAY + 10, 9, 0.5, 7, DAY + 30)]
    t.strictSame(await store.read('ETH-USD', '1', ...ALL, 10), afterTie)
    await store.merge('ETH-USD', [tie])
    t.strictSame(await store.read('ETH-USD', '1', ...ALL, 10), afterTie, 'merging the same candle again changes nothing')
    t.strictSame(await store.read('ETH-USD', '1D', ...ALL, 10), afterTie, 'every resolution saw the same merges')
  })

  t.test('reads the periods starting in [from, to), oldest first, at most limit, one pair only', async (t) => {
    const store = await open(t)
    const minutes = [0, 1, 2, 3, 4].map((n) => candle(DAY + 60 * n, n, DAY + 60 * n, n, n, n, DAY + 60 * n))
    // written newest first: the store orders them
    await store.merge('SOL-USD', [...minutes].reverse())
    await store.merge('XRP-USD', [candle(DAY, 7, DAY, 7, 7, 7, DAY)])
    t.strictSame(await store.read('SOL-USD', '1', DAY + 60, DAY + 240, 10), minutes.slice(1, 4))
    t.strictSame(await store.read('SOL-USD', '1', DAY + 1, DAY + 61, 10), minutes.slice(1, 2), 'from is inclusive, to exclusive')
    t.strictSame(await store.read('SOL-USD', '1', ...ALL, 2), minutes.slice(0, 2))
    t.strictSame(await store.read('SOL-USD', '1', DAY + 300, DAY + 900, 10), [])
    t.strictSame(await store.read('ADA-USD', '1', ...ALL, 10), [], 'a pair never written')
    t.strictSame(await store.read('XRP-USD', '1', ...ALL, 10), [candle(DAY, 7, DAY, 7, 7, 7, DAY)])
    t.strictSame(await store.latestBefore('SOL-USD', '1', DAY + 180), minutes[2], 'the newest candle starting before an instant')
    t.strictSame(await store.latestBefore('SOL-USD', '1', DAY + 181), minutes[3])
    t.equal(await store.latestBefore('SOL-USD', '1', DAY), undefined, 'none before the first')
    t.equal(await store.latestBefore('ADA-USD', '1', DAY), undefined, 'none for a pair never written')
  })

  t.test('each resolution keeps its newest candles only', async (t) => {
    const store = await open(t, 3)
    const minutes = [0, 1, 2, 3, 4].map((n) => candle(DAY + 60 * n, n, DAY + 60 * n, n, n, n, DAY + 60 * n))
    await store.merge('BNB-USD', minutes.slice(0, 4))
    await store.merge('BNB-USD', minutes.slice(4))
    t.strictSame(await store.read('BNB-USD', '1', ...ALL, 10), minutes.slice(2))
    t.strictSame(await store.read('BNB-USD', '5', ...ALL, 10), [candle(DAY, 0, DAY, 4, 0, 4, DAY + 240)])
  })

  t.test('prices and times read back exactly', async (t) => {
    const store = await open(t)
    const exact = candle(DAY + 120, 0.30000000000000004, DAY + 121, 123456789.12345679, 1e-7, 1.0000000000000002, DAY + 179)
    await store.merge('EUR-USD', [exact])
    t.strictSame(await store.read('EUR-USD', '1', ...ALL, 10), [exact])
  })

  t.test('history minutes join every resolution only where the store holds no minute of ours', async (t) => {
    const store = await open(t)
    const own = candle(DAY + 60, 100, DAY + 70, 101, 99, 100.5, DAY + 110)
    await store.merge('BTC-USD', [own])
    // the source's bars span their whole minute
    const upstream = [candle(DAY, 98, DAY, 99, 97, 98.5, DAY + 59), candle(DAY + 60, 50, DAY + 60, 50, 50, 50, DAY + 119)]
    await store.mergeAbsentMinutes('BTC-USD', upstream)
    t.strictSame(await store.read('BTC-USD', '1', ...ALL, 10), [upstream[0], own], 'our minute stays; the hole before it is filled')
    t.strictSame(
      await store.read('BTC-USD', '5', ...ALL, 10),
      [candle(DAY, 98, DAY, 101, 97, 100.5, DAY + 110)],
      'the five minutes hold both, the skipped bar left out',
    )
    await store.mergeAbsentMinutes('BTC-USD', [upstream[0]!])
    t.strictSame(
      await store.read('BTC-USD', '1D', ...ALL, 10),
      [candle(DAY, 98, DAY, 101, 97, 100.5, DAY + 110)],
      'merging it again changes nothing',
    )
  })

  t.test("a resolution's history candles fill only the periods that hold none", async (t) => {
    const store = await open(t, 3)
    await store.merge('ETH-USD', [candle(DAY + 3600, 10, DAY + 3601, 11, 9, 10, DAY + 3700)])
    const hours = [0, 1, 2].map((n) => candle(DAY + 3600 * n, 20 + n, DAY + 3600 * n, 21 + n, 19 + n, 20 + n, DAY + 3600 * n + 3599))
    await store.insertAbsent('ETH-USD', '60', hours)
    t.strictSame(
      await store.read('ETH-USD', '60', ...ALL, 10),
      [hours[0], candle(DAY + 3600, 10, DAY + 3601, 11, 9, 10, DAY + 3700), hours[2]],
      'our hour stays',
    )
    t.strictSame(
      await store.read('ETH-USD', '1', ...ALL, 10),
      [candle(DAY + 3600, 10, DAY + 3601, 11, 9, 10, DAY + 3700)],
      'other resolutions untouched',
    )
    await store.insertAbsent('ETH-USD', '60', [candle(DAY - 3600, 1, DAY - 3600, 1, 1, 1, DAY - 1)])
    t.strictSame((await store.read('ETH-USD', '60', ...ALL, 10)).length, 3, 'retention holds: the oldest goes')
  })
}
