// The impact model's terms and caps, and the parameter data, against values worked out by hand.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import t from 'tap'
import { pairBySymbol } from '../../../schemas/pairs.ts'
import { availableNotionalUsd, dynamicImpactPercent, fillPrice, impactPercent, spreadImpactPercent } from '../impact-model.ts'
import { DEFAULT_DEPTH_PARAMETERS, impactParametersFor, loadDepthParameters } from '../impact-parameters.ts'

const parameters = { netVolThresholdUsd: 1_000_000, priceImpactK: 1e-9 }

t.test('spread term: half the quoted spread in percent of mid', async (t) => {
  t.equal(spreadImpactPercent({ bid: 99_990, mid: 100_000, ask: 100_010 }), 0.01) // 20 / 200000 × 100
  t.equal(spreadImpactPercent({ bid: 100, mid: 100, ask: 100 }), 0, 'no spread, no term')
})

t.test('dynamic term: none under the threshold, then growing with the excess', async (t) => {
  t.equal(dynamicImpactPercent(parameters, 1_000_000, 0), 0, 'V0 + S = T')
  t.equal(dynamicImpactPercent(parameters, 400_000, 600_000), 0, 'prior volume counts toward T')
  // crossing T: K · (V0 + S − T)² / (2S) = 1e-9 · (1e6)² / 4e6 = 2.5e-4 → 0.025 %
  t.equal(dynamicImpactPercent(parameters, 2_000_000, 0), 0.025)
  // V0 = 500k, S = 1M: excess 500k; 1e-9 · 2.5e11 / 2e6 = 1.25e-4 → 0.0125 %
  t.equal(dynamicImpactPercent(parameters, 1_000_000, 500_000), 0.0125)
  // already past T: K · (V0 − T + S/2) = 1e-9 · (2e6 − 1e6 + 1e6) = 2e-3 → 0.2 %
  t.equal(dynamicImpactPercent(parameters, 2_000_000, 2_000_000), 0.2)
})

t.test('impact and fill: long above mid, short below', async (t) => {
  const price = { bid: 99_990, mid: 100_000, ask: 100_010 }
  t.equal(impactPercent(price, parameters, 2_000_000, 0), 0.035) // 0.01 + 0.025
  t.equal(fillPrice(100_000, 'long', 0.035), 100_035)
  t.equal(fillPrice(100_000, 'short', 0.035), 99_965)
})

t.test('available notional: the room under the ceiling, never negative', async (t) => {
  t.equal(availableNotionalUsd(24_400_000, 9_000_000), 15_400_000)
  t.equal(availableNotionalUsd(1_000_000, 1_200_000), 0, 'over the ceiling')
  t.equal(availableNotionalUsd(0, 0), 0, 'no ceiling: not tradeable')
})

t.test('the parameter data: class defaults, pair overrides, levels', async (t) => {
  t.strictSame(impactParametersFor(DEFAULT_DEPTH_PARAMETERS, pairBySymbol('BTC-USD')!), {
    netVolThresholdUsd: 5_000_000,
    priceImpactK: 2e-10,
  })
  t.strictSame(impactParametersFor(DEFAULT_DEPTH_PARAMETERS, pairBySymbol('AAPL-USD')!), {
    netVolThresholdUsd: 100_000,
    priceImpactK: 1e-8,
  })
  t.strictSame(impactParametersFor(DEFAULT_DEPTH_PARAMETERS, pairBySymbol('USD-KRW')!), {
    netVolThresholdUsd: 2_000_000,
    priceImpactK: 5e-10,
  })
  t.equal(DEFAULT_DEPTH_PARAMETERS.levelsUsd[0], 1000)

  const folder = mkdtempSync(join(tmpdir(), 'depth-parameters-'))
  t.teardown(() => rmSync(folder, { recursive: true }))
  const file = join(folder, 'parameters.json')
  writeFileSync(file, JSON.stringify({ ...DEFAULT_DEPTH_PARAMETERS, levelsUsd: [10, 5], pairs: { 'SPX-USD': parameters } }))
  t.throws(() => loadDepthParameters(pathToFileURL(file)), { message: /must be ascending[\s\S]*keys must be listed pair symbols/ })
})
