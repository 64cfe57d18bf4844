// The Pair fields of the newer rollover model and the oracle, and the day-trade and builder fields of
// trades and orders: selected, filtered, ordered and paged as graph-node answers them.

import t from 'tap'
import { seedData } from '../index.ts'
import { queryData, selection, startStandin, wireFields } from './fixtures/standin-client.ts'

const data = seedData(42161)
const ROLLOVER = ['lastRolloverLongPure', 'accRolloverLong', 'accRolloverShort', 'brokerPremium', 'isNegativeRolloverAllowed', 'oracle']
const ids = (rows: ReadonlyArray<{ id: string }>) => rows.map((row) => row.id)
const byId = <R extends { id: string }>(rows: readonly R[]) => [...rows].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
const compare = (a: bigint, b: bigint) => (a < b ? -1 : a > b ? 1 : 0)

t.test('rollover, oracle, day-trade and builder fields', async (t) => {
  const standin = await startStandin(t)
  const url = standin.url(42161)

  t.test('selected: every pair, as stored', async (t) => {
    const answer = await queryData<{ pairs: Array<Record<string, unknown>> }>(url, `{ pairs(first: 1000) { id ${selection(ROLLOVER)} } }`)
    t.strictSame(
      answer.pairs,
      byId(data.pairs).map((pair) => wireFields(pair, ['id', ...ROLLOVER])),
    )
    t.ok(
      data.pairs.some((pair) => (pair.lastRolloverLongPure ?? 0n) < 0n),
      'some pairs pay shorts (a negative pure rate)',
    )
  })

  t.test('filtered: booleans, signed numbers, a nested pair filter', async (t) => {
    const answer = await queryData<Record<string, Array<{ id: string }>>>(
      url,
      `{
        negativeAllowed: pairs(first: 1000, where: { isNegativeRolloverAllowed: true }) { id }
        shortsPaid: pairs(first: 1000, where: { lastRolloverLongPure_lt: 0 }) { id }
        premium: pairs(first: 1000, where: { brokerPremium_gte: "500000000", accRolloverLong_gt: "0" }) { id }
        chainlink: pairs(first: 1000, where: { oracle_in: ["chainlink"] }) { id }
        onFxPairs: trades(first: 1000, where: { isOpen: true, pair_: { isNegativeRolloverAllowed: true } }) { id }
        dayTrades: trades(first: 1000, where: { isDayTrade: true, isOpen: true }) { id }
        dayLimits: limits(first: 1000, where: { isDayTrade: true }) { id }
        noBuilder: orders(first: 1000, where: { builderFee: "0", builder_not: null, isDayTrade: true }) { id }
      }`,
    )
    const pairs = (test: (pair: (typeof data.pairs)[number]) => boolean) => ids(byId(data.pairs.filter(test)))
    t.strictSame(
      ids(answer.negativeAllowed!),
      pairs((pair) => pair.isNegativeRolloverAllowed === true),
    )
    t.strictSame(
      ids(answer.shortsPaid!),
      pairs((pair) => (pair.lastRolloverLongPure ?? 0n) < 0n),
    )
    t.strictSame(
      ids(answer.premium!),
      pairs((pair) => (pair.brokerPremium ?? 0n) >= 500_000_000n && (pair.accRolloverLong ?? 0n) > 0n),
    )
    t.equal(answer.chainlink!.length, data.pairs.length)
    const fxPairs = new Set(data.pairs.filter((pair) => pair.isNegativeRolloverAllowed).map((pair) => pair.id))
    t.strictSame(ids(answer.onFxPairs!), ids(byId(data.trades.filter((trade) => trade.isOpen && fxPairs.has(trade.pair)))))
    t.strictSame(ids(answer.dayTrades!), ids(byId(data.trades.filter((trade) => trade.isDayTrade === true && trade.isOpen))))
    t.ok(answer.dayLimits!.length > 0)
    t.strictSame(ids(answer.dayLimits!), ids(byId(data.limits.filter((limit) => limit.isDayTrade === true))))
    t.strictSame(
      ids(answer.noBuilder!),
      ids(byId(data.orders.filter((order) => order.builderFee === 0n && order.builder !== null && order.isDayTrade === true))),
    )
  })

  t.test('ordered and paged: signed rates in numeric order, by the pair of a trade', async (t) => {
    const answer = await queryData<Record<string, Array<{ id: string }>>>(
      url,
      `{
        ascending: pairs(first: 1000, orderBy: lastRolloverLongPure) { id }
        topPremiums: pairs(first: 5, orderBy: brokerPremium, orderDirection: desc) { id }
        page: pairs(first: 10, skip: 10, orderBy: lastRolloverLongPure, orderDirection: desc) { id }
        tradesByRate: trades(first: 50, where: { isOpen: true }, orderBy: pair__lastRolloverLongPure, orderDirection: desc) { id }
      }`,
    )
    const byRate = [...data.pairs].sort((a, b) => compare(a.lastRolloverLongPure!, b.lastRolloverLongPure!) || (a.id < b.id ? -1 : 1))
    t.strictSame(ids(answer.ascending!), ids(byRate))
    const byPremium = [...data.pairs].sort((a, b) => compare(b.brokerPremium!, a.brokerPremium!) || (a.id < b.id ? 1 : -1))
    t.strictSame(ids(answer.topPremiums!), ids(byPremium.slice(0, 5)))
    t.strictSame(ids(answer.page!), ids([...byRate].reverse().slice(10, 20)))
    const rateOf = (pairId: string) => data.pairs.find((pair) => pair.id === pairId)!.lastRolloverLongPure!
    const open = data.trades.filter((trade) => trade.isOpen)
    const expected = [...open].sort((a, b) => compare(rateOf(b.pair), rateOf(a.pair)) || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0))
    t.strictSame(ids(answer.tradesByRate!), ids(expected.slice(0, 50)))
  })
})
