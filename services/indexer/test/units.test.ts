// On-chain units → plain numbers, against values worked out by hand.

import t from 'tap'
import { fromE18, fromFixedPoint, fromHundredths, fromRatePercent, fromUsdc } from '../units.ts'

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
  t.equal(fromE18('-3153185389'), -0.000000003153185389, 'a funding rate')
  t.equal(fromUsdc('1393000000'), 1393, 'USDC, 6 decimals')
  t.equal(fromUsdc('24400000000000'), 24_400_000)
  t.equal(fromHundredths('10000'), 100, 'leverage ×100')
  t.equal(fromHundredths('110'), 1.1)
  t.equal(fromHundredths('7974'), 79.74, 'an order percentage ×100')
  t.equal(fromRatePercent('30000'), 0.03, 'a fee rate, percent ×1e6')
})
