// The contract's price-impact arithmetic (TradingCallbacksLib v1.5) and exposure caps, term by term,
// against integers worked out from the contract's formulas (units: prices and percent ×1e18, USD ×1e18,
// K ×1e27, decay ×1e18 per second; every division truncates).

import t from 'tap'
import type { PairMarketState } from '../../indexer/market-state.ts'
import { decayVolumeWithPade, effectiveDecayRate, openingPriceImpact, priceImpactFunction, type DynamicSpread } from '../impact-model.ts'
import { availableNotional, groupCollateralRoom, openInterestRoom } from '../trading-caps.ts'

const E18 = 10n ** 18n
const usd = (amount: number) => BigInt(amount) * E18
const BOOK = { bid: 99_990n * E18, mid: 100_000n * E18, ask: 100_010n * E18 }
/** decay at 1/3600 per second */
const RATE = 277_777_777_777_778n
/** BTC-USD as the stand-in seeds it: K 2e-10, threshold 5M, 8M bought and 1M sold, updated at T0 */
const T0 = 1_767_225_000n
const BTC: DynamicSpread = {
  priceImpactK: 200_000_000_000_000_000n,
  netVolThreshold: usd(5_000_000),
  decayRate: RATE,
  buyVolume: usd(8_000_000),
  sellVolume: usd(1_000_000),
  lastUpdateTimestamp: T0,
}

t.test('effective decay rate: slowed by the imbalance, between 1 and 3 times', async (t) => {
  // |8M − 1M| / 5M = 1.4 → 277777777777778 · 1e18 / 1.4e18 = 198412698412698 (truncated)
  t.equal(effectiveDecayRate(usd(8_000_000), usd(1_000_000), RATE, usd(5_000_000)), 198_412_698_412_698n)
  t.equal(effectiveDecayRate(usd(3_000_000), usd(1_000_000), RATE, usd(5_000_000)), RATE, 'imbalance under the threshold: factor 1')
  // 100 / 10 = 10, clamped to 3: 277777777777778 / 3 = 92592592592592
  t.equal(effectiveDecayRate(usd(100), 0n, RATE, usd(10)), 92_592_592_592_592n)
  t.equal(effectiveDecayRate(0n, 0n, RATE, 0n), 92_592_592_592_592n, 'no threshold: the slowest decay')
})

t.test('Padé decay: (1 − x/2) / (1 + x/2), floored at 0', async (t) => {
  // x/2 = 198412698412698 · 600 / 2 = 59523809523809400; multiplier = (1e18 − x/2) · 1e18 / (1e18 + x/2)
  //     = 940476190476190600e18 / 1059523809523809400 = 887640449438202467 (truncated)
  // 8M · 0.887640449438202467 = 7101123.595505619736 USD
  t.equal(decayVolumeWithPade(usd(8_000_000), 600n, 198_412_698_412_698n), 7_101_123_595_505_619_736_000_000n)
  t.equal(decayVolumeWithPade(usd(1_000_000), 600n, 198_412_698_412_698n), 887_640_449_438_202_467_000_000n)
  t.equal(decayVolumeWithPade(usd(8_000_000), 0n, RATE), usd(8_000_000), 'no time: no decay')
  t.equal(decayVolumeWithPade(usd(1000), 14_400n, RATE), 0n, 'x ≥ 2: all gone')
})

t.test('impact function: spread, then the three regimes of the dynamic term', async (t) => {
  const K = 1_000_000_000_000_000_000n // 1e-9 per USD
  const T = usd(1_000_000)
  // spread: 20e18 · 1e18 · 100 / 200000e18 = 0.01 % = 1e16
  t.equal(priceImpactFunction(T, K, usd(1_000_000), 0n, BOOK), 10_000_000_000_000_000n, 'V0 + S = T: spread only')
  // crossing: K · (1e24)² · 100 / (2 · 2e24) / 1e27 = 2.5e16 (0.025 %), plus the spread
  t.equal(priceImpactFunction(T, K, usd(2_000_000), 0n, BOOK), 35_000_000_000_000_000n)
  // past T already: K · (2e24 − 1e24 + 1e24) · 100 / 1e27 = 2e17 (0.2 %), plus the spread
  t.equal(priceImpactFunction(T, K, usd(2_000_000), usd(2_000_000), BOOK), 210_000_000_000_000_000n)
})

t.test('opening a BTC long after 8M of buying (decayed 600 s) versus a fresh window', async (t) => {
  // V0 = 7101123.5957 USD ≥ T: K · (V0 − T + S/2) = 2e17 · 2601123.5955e18 · 100 / 1e27 = 52022471910112394;
  // plus the spread 1e16 → 0.062022471910112394 %; fill = 100000e18 · (1e18 + P/100) / 1e18
  t.strictSame(openingPriceImpact(BOOK, BTC, 'long', usd(1_000_000), T0 + 600n), {
    priceImpactP: 62_022_471_910_112_394n,
    priceAfterImpact: 100_062_022_471_910_112_300_000n,
    isDynamic: true,
  })
  // no time elapsed: V0 = 8M, 2e17 · (8M − 5M + 0.5M) · 100 / 1e27 = 7e16 → 0.08 %
  t.equal(openingPriceImpact(BOOK, BTC, 'long', usd(1_000_000), T0).priceImpactP, 80_000_000_000_000_000n)
  // with no recorded volume the same trade pays the spread only: the prior volume is 87.5 % of the impact
  t.equal(openingPriceImpact(BOOK, { ...BTC, buyVolume: 0n }, 'long', usd(1_000_000), T0).priceImpactP, 10_000_000_000_000_000n)
})

t.test('opening a BTC short meets the sell volume', async (t) => {
  // V0 = 887640.449 + 1M ≤ 5M: spread only; fill 100000 · (1 − 0.0001) = 99990
  t.strictSame(openingPriceImpact(BOOK, BTC, 'short', usd(1_000_000), T0 + 600n), {
    priceImpactP: 10_000_000_000_000_000n,
    priceAfterImpact: 99_990_000_000_000_000_000_000n,
    isDynamic: true,
  })
  // 5M: excess 887640.449438202467 USD; 2e17 · excess² · 100 / (2 · 5e24) / 1e27 = 1575811134957708
  t.equal(openingPriceImpact(BOOK, BTC, 'short', usd(5_000_000), T0 + 600n).priceImpactP, 11_575_811_134_957_708n)
})

t.test('K = 0: the older bid/ask model', async (t) => {
  const simple = { ...BTC, priceImpactK: 0n }
  t.strictSame(openingPriceImpact(BOOK, simple, 'long', usd(10_000_000), T0), {
    priceImpactP: 10_000_000_000_000_000n,
    priceAfterImpact: BOOK.ask,
    isDynamic: false,
  })
  t.equal(openingPriceImpact(BOOK, simple, 'short', usd(10_000_000), T0).priceAfterImpact, BOOK.bid)
})

t.test('a short fill is floored at 0 and its impact capped at 100 %', async (t) => {
  const steep = { ...BTC, priceImpactK: 10n ** 27n, netVolThreshold: usd(1_000_000), buyVolume: 0n, sellVolume: 0n }
  t.strictSame(openingPriceImpact(BOOK, steep, 'short', usd(5_000_000), T0), {
    priceImpactP: 100n * E18,
    priceAfterImpact: 0n,
    isDynamic: true,
  })
  t.ok(openingPriceImpact(BOOK, steep, 'long', usd(5_000_000), T0).priceAfterImpact > 2n * BOOK.mid, 'a long has no cap')
})

const STATE: PairMarketState = {
  id: '0',
  longOI: 90n * E18, // 90 BTC
  shortOI: 100n * E18,
  maxOI: 24_400_000_000_000n, // 24.4M USDC
  maxLeverage: 5000n, // 50x
  ...BTC,
  groupMaxCollateralP: 4000n, // 40 % of the vault
  groupCollateral: { long: 23_900_000_000_000n, short: 1_000_000_000_000n },
  vaultAssets: 60_000_000_000_000n, // 60M USDC
}

t.test('caps: open interest and the group collateral ceiling, whichever is tighter', async (t) => {
  // 24.4M − 90 · 100000 = 15.4M USDC
  t.equal(openInterestRoom(STATE, 'long', BOOK.mid), 15_400_000_000_000n)
  t.equal(openInterestRoom({ ...STATE, maxOI: 0n }, 'long', BOOK.mid), 0n, 'no ceiling: nothing')
  t.equal(openInterestRoom({ ...STATE, longOI: 300n * E18 }, 'long', BOOK.mid), 0n, 'over the ceiling: nothing')
  // group: 4000 · 60M / 10000 = 24M; long 24M − 23.9M = 100k collateral · 50x = 5M notional
  t.equal(groupCollateralRoom(STATE, 'long'), 5_000_000_000_000n)
  t.equal(availableNotional(STATE, 'long', BOOK.mid), 5_000_000_000_000n, 'the group binds the long side')
  // short: 23M collateral room · 50 = 1.15B; the open interest binds: 24.4M − 10M = 14.4M
  t.equal(availableNotional(STATE, 'short', BOOK.mid), 14_400_000_000_000n)
  t.equal(groupCollateralRoom({ ...STATE, vaultAssets: null }, 'long'), undefined, 'unknown vault: no group figure')
  t.equal(availableNotional({ ...STATE, vaultAssets: null }, 'long', BOOK.mid), 15_400_000_000_000n)
})
