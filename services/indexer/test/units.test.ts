// On-chain units → plain numbers, against values worked out by hand.

import t from 'tap'
import { accruedFee, fromE18, fromFixedPoint, fromFundingRate, fromHundredths, fromRatePercent, fromUsdc } from '../units.ts'

t.test('fixed-point text splits at the decimal point', async (t) => {
  t.equal(fromFixedPoint('1234500', 6), 1.2345)
  t.equal(fromFixedPoint('5', 6), 0.000005, 'fewer digits than decimals')
  t.equal(fromFixedPoint('0', 18), 0)
  t.equal(fromFixedPoint('-564497', 6), -0.564497, 'negative amounts keep their sign')
  t.equal(fromFixedPoint('-5', 2), -0.05)
})

t.test('each unit of the indexed source', async (t) => {
  t.equal(fromE18('558013247800000000000'), 558.0132478, 'a price, 18 decimals')
  t.equal(fromE18('96333742718310000000000'), 96333.74271831)
  t.equal(fromE18('249635650316902745046'), 249.635650316902745046, 'asset units: the double nearest the exact value')
  t.equal(fromE18('70353415'), 0.000000000070353415, 'a per-block rollover rate')
  t.equal(fromUsdc('1393000000'), 1393, 'USDC, 6 decimals')
  t.equal(fromUsdc('24400000000000'), 24_400_000)
  t.equal(fromHundredths('10000'), 100, 'leverage ×100')
  t.equal(fromHundredths('110'), 1.1)
  t.equal(fromHundredths('7974'), 79.74, 'an order percentage ×100')
  t.equal(fromRatePercent('30000'), 0.03, 'a fee rate, percent ×1e6')
})

t.test('funding rates as both public SDKs scale them: / 1e9', async (t) => {
  // ostium-python-sdk sdk.py: Decimal(pair['curFundingLong']) / PRECISION_9; ostium-typescript-sdk
  // client.ts: Number(pair.curFundingLong) / 1e9
  t.equal(fromFundingRate('3273000189'), 3.273000189)
  t.equal(fromFundingRate('-3153185389'), -3.153185389)
  t.equal(fromFundingRate(null), null, 'a figure the source lacks stays null')
})

t.test("accrued funding and rollover: per-OI accumulators (1e18), the Python SDK's arithmetic", async (t) => {
  // formulae.py GetTradeFundingFee: (current − initial) × collateral × leverage, with the accumulators
  // / PRECISION_18, collateral / PRECISION_6, leverage / PRECISION_2
  // (0.11889359 − 0.11976993) × 4265 × 3 = −0.00087634 × 12795 = −11.2127703
  t.equal(accruedFee('118893590000000000', '119769930000000000', '4265000000', '300'), -11.2127703)
  // (0.02075942 − 0.01919983) × 12795 = 19.95495405
  t.equal(accruedFee('20759420000000000', '19199830000000000', '4265000000', '300'), 19.95495405)
  // 1e-18 of a 1 USDC, 1x position: exact to the last digit (26 decimals)
  t.equal(accruedFee('1', '0', '1000000', '100'), 1e-18)
  // negative accumulators (int256): −0.0452 − (−0.0462) = 0.001 × 100 × 2 = 0.2
  t.equal(accruedFee('-45200000000000000', '-46200000000000000', '100000000', '200'), 0.2)
  t.equal(accruedFee(null, '1', '1', '100'), null, 'no pair accumulator: null')
})
