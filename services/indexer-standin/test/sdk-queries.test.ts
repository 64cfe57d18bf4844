// The queries the venue's public SDK sends return exactly the seed rows they select.

import t from 'tap'
import { DEMO_TRADER, seedData, type ChainId, type PairRow, type SeedData } from '../index.ts'
import {
  GET_OPEN_TRADES,
  GET_PAIRS,
  GET_RECENT_HISTORY,
  GET_RESTING_ORDERS,
  GROUP_FIELDS,
  LIMIT_FIELDS,
  LIMIT_PAIR_FIELDS,
  ORDER_FIELDS,
  ORDER_PAIR_FIELDS,
  PAIR_FIELDS,
  TRADE_FIELDS,
  TRADE_PAIR_FIELDS,
} from './fixtures/sdk-queries.ts'
import { queryData, startStandin, wireFields } from './fixtures/standin-client.ts'

const demo = DEMO_TRADER.toLowerCase()

function byId(a: { id: string }, b: { id: string }): number {
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0
}

function pairOf(data: SeedData, id: string): PairRow {
  const pair = data.pairs.find((candidate) => candidate.id === id)
  if (!pair) throw new Error(`no pair ${id}`)
  return pair
}

function expectedOpenTrades(chainId: ChainId): unknown[] {
  const data = seedData(chainId)
  return data.trades
    .filter((trade) => trade.trader === demo && trade.isOpen)
    .sort(byId)
    .map((trade) => ({ ...wireFields(trade, TRADE_FIELDS), pair: wireFields(pairOf(data, trade.pair), TRADE_PAIR_FIELDS) }))
}

t.test('the SDK queries', async (t) => {
  const standin = await startStandin(t)
  const url = standin.url(42161)
  const data = seedData(42161)

  t.test('pairs(first: 1000) lists the 83 pairs in id order, compared as strings', async (t) => {
    const answer = await queryData<{ pairs: Array<{ id: string }> }>(url, GET_PAIRS)
    const expected = [...data.pairs].sort(byId).map((pair) => {
      const group = data.groups.find((candidate) => candidate.id === pair.group)
      if (!group) throw new Error(`no group ${pair.group}`)
      return { ...wireFields(pair, PAIR_FIELDS), group: wireFields(group, GROUP_FIELDS) }
    })
    t.equal(answer.pairs.length, 83)
    t.strictSame(
      answer.pairs.slice(0, 4).map((pair) => pair.id),
      ['0', '1', '10', '11'],
    )
    t.strictSame(answer.pairs, expected)
  })

  t.test('open trades of a wallet given in checksummed spelling', async (t) => {
    const answer = await queryData<{ trades: unknown[] }>(url, GET_OPEN_TRADES, { trader: DEMO_TRADER })
    t.equal(answer.trades.length, 8)
    t.strictSame(answer.trades, expectedOpenTrades(42161))
  })

  t.test('resting limit/stop orders, oldest first', async (t) => {
    const answer = await queryData<{ limits: unknown[] }>(url, GET_RESTING_ORDERS, { trader: DEMO_TRADER })
    const expected = data.limits
      .filter((limit) => limit.trader === demo && limit.isActive)
      .sort((a, b) => Number(a.initiatedAt - b.initiatedAt))
      .map((limit) => ({ ...wireFields(limit, LIMIT_FIELDS), pair: wireFields(pairOf(data, limit.pair), LIMIT_PAIR_FIELDS) }))
    t.equal(answer.limits.length, 12)
    t.strictSame(answer.limits, expected)
  })

  t.test('recent history: settled orders, newest first, `first` from a variable', async (t) => {
    const settledRows = data.orders
      .filter((order) => order.trader === demo && !order.isPending)
      .sort((a, b) => Number((b.executedAt ?? 0n) - (a.executedAt ?? 0n)))
    const settled = settledRows.map((order) => ({
      ...wireFields(order, ORDER_FIELDS),
      pair: wireFields(pairOf(data, order.pair), ORDER_PAIR_FIELDS),
    }))
    t.ok(
      settledRows.some((order) => order.isCancelled),
      'history includes cancelled orders',
    )
    const lastTen = await queryData<{ orders: unknown[] }>(url, GET_RECENT_HISTORY, { trader: DEMO_TRADER, last_n_orders: 10 })
    t.strictSame(lastTen.orders, settled.slice(0, 10))

    const withoutFirst = await queryData<{ orders: unknown[] }>(url, GET_RECENT_HISTORY, { trader: DEMO_TRADER })
    t.equal(settled.length, 93)
    t.strictSame(withoutFirst.orders, settled, 'an omitted `first` means 100')
  })

  t.test('single rows by id, and null for an unknown id', async (t) => {
    const trade = data.trades.find((row) => row.trader === demo && row.isOpen)
    const limit = data.limits.find((row) => row.trader === demo && row.isActive)
    const order = data.orders.find((row) => row.trader === demo && row.isPending)
    if (!trade || !limit || !order) throw new Error('the demo trader lacks a row kind')
    const answer = await queryData<Record<string, unknown>>(
      url,
      `query($trade: ID!, $limit: ID!, $order: ID!) {
        pair(id: "53") { id from to maxOI }
        trade(id: $trade) { id tradeID isOpen }
        limit(id: $limit) { id orderId isActive }
        order(id: $order) { id isPending executedAt executedTx tradeID }
        missing: trade(id: "1") { id }
      }`,
      { trade: trade.id, limit: limit.id, order: order.id },
    )
    t.strictSame(answer, {
      pair: { id: '53', from: 'USD', to: 'KRW', maxOI: '0' },
      trade: { id: trade.id, tradeID: trade.tradeID.toString(), isOpen: true },
      limit: { id: limit.id, orderId: limit.orderId.toString(), isActive: true },
      order: { id: order.id, isPending: true, executedAt: null, executedTx: null, tradeID: null },
      missing: null,
    })
  })
})

t.test('each chain has its own endpoint and its own data', async (t) => {
  const standin = await startStandin(t)
  const mainnet = await queryData<{ trades: unknown[] }>(standin.url(42161), GET_OPEN_TRADES, { trader: DEMO_TRADER })
  const testnet = await queryData<{ trades: unknown[] }>(standin.url(421614), GET_OPEN_TRADES, { trader: DEMO_TRADER })
  t.strictSame(testnet.trades, expectedOpenTrades(421614))
  t.notSame(testnet.trades, mainnet.trades)
  t.not(standin.url(42161), standin.url(421614))
})
