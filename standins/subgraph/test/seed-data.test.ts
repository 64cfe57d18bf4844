// The generated data: deterministic per seed, the promised volumes, and rows that agree with each other.

import t from 'tap'
import { buildSeedData } from '../seed/seed-data.ts'
import { DEFAULT_SEED, DEMO_TRADER, SEED_HEAD_TIMESTAMP, WHALE_TRADER, seedData } from '../index.ts'

/** The whole data set as text (a deep comparison of hundreds of rows is slow). */
function fingerprint(value: unknown): string {
  return JSON.stringify(value, (_key, field: unknown) => (typeof field === 'bigint' ? field.toString() : field))
}

t.test('the same seed builds the same data; another seed builds other data', async (t) => {
  const seven = buildSeedData(421614, 7)
  t.ok(fingerprint(buildSeedData(421614, 7)) === fingerprint(seven), 'rebuilt with seed 7: identical')
  const eight = buildSeedData(421614, 8)
  t.ok(fingerprint(eight.orders) !== fingerprint(seven.orders), 'seed 8: other orders')
  t.ok(fingerprint(eight.pairs) !== fingerprint(seven.pairs), 'seed 8: other pair figures')
  t.strictSame(eight.traders, seven.traders, 'wallets do not depend on the seed')
})

t.test('volumes', async (t) => {
  const mainnet = seedData(42161, DEFAULT_SEED)
  const whaleResting = mainnet.limits.filter((limit) => limit.trader === WHALE_TRADER && limit.isActive)
  const whaleOrders = mainnet.orders.filter((order) => order.trader === WHALE_TRADER)
  t.equal(whaleResting.length, 6200)
  t.ok(whaleOrders.length > 6000, `the whale has ${whaleOrders.length} orders`)
  t.strictSame(mainnet.traders.slice(0, 2), [DEMO_TRADER.toLowerCase(), WHALE_TRADER])
  t.equal(mainnet.traders.length, 8)
  t.equal(seedData(421614).traders.length, 4)
  t.notOk(seedData(421614).traders.includes(WHALE_TRADER), 'the whale only trades on 42161')
  for (const [state, count] of Object.entries({
    pending: mainnet.orders.filter((order) => order.isPending).length,
    cancelled: mainnet.orders.filter((order) => order.isCancelled).length,
    executed: mainnet.orders.filter((order) => order.executedAt !== 0n && !order.isCancelled).length,
    'open trades': mainnet.trades.filter((trade) => trade.isOpen).length,
    'inactive limits': mainnet.limits.filter((limit) => !limit.isActive).length,
  })) {
    t.ok(count > 0, `${count} ${state}`)
  }
})

t.test('rows agree with each other', async (t) => {
  for (const data of [seedData(42161), seedData(421614)]) {
    const tradeIds = new Set(data.trades.map((trade) => trade.tradeID))
    const ordersById = new Map(data.orders.map((order) => [order.id, order]))
    const tradesWith = (action: 'Open' | 'Close') =>
      new Set(data.orders.filter((order) => order.orderAction === action && order.tradeID !== '0').map((order) => order.tradeID))
    const opened = tradesWith('Open')
    const closed = tradesWith('Close')
    t.ok(
      data.orders.every((order) => order.tradeID === '0' || tradeIds.has(order.tradeID)),
      'orders point at existing trades',
    )
    t.ok(
      data.trades.every((trade) => opened.has(trade.tradeID)),
      'every trade has its opening order',
    )
    t.ok(
      data.trades.every((trade) => closed.has(trade.tradeID) === !trade.isOpen),
      'exactly the closed trades have a closing order',
    )
    const filledLimits = data.limits.filter((limit) => ordersById.has(limit.orderId))
    t.ok(filledLimits.length > 0)
    t.ok(
      filledLimits.every((limit) => !limit.isActive && ordersById.get(limit.orderId)?.orderType.toUpperCase() === limit.limitType),
      'a filled limit is inactive and its order has its type',
    )
    t.notOk(
      [...data.trades, ...data.limits, ...data.orders].some((row) => row.pair === '53'),
      'nothing trades on pair 53',
    )
    const head = BigInt(SEED_HEAD_TIMESTAMP)
    t.ok(
      data.orders.every((order) => order.initiatedAt <= head && order.executedAt <= head),
      'no order after the seed head',
    )
    t.ok(
      data.limits.every((limit) => limit.updatedAt <= head),
      'no limit change after the seed head',
    )
    for (const trader of data.traders) {
      const initiated = data.limits.filter((limit) => limit.trader === trader).map((limit) => limit.initiatedAt)
      const executed = data.orders.filter((order) => order.trader === trader && order.executedAt !== 0n).map((order) => order.executedAt)
      t.equal(new Set(initiated).size, initiated.length, `${trader}: no two limits placed in the same second`)
      t.equal(new Set(executed).size, executed.length, `${trader}: no two orders settled in the same second`)
    }
  }
})
