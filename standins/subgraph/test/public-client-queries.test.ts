// Every query of the public clients (fixtures/public-client-queries.ts, each with its source) runs
// verbatim against the stand-in and gets data without errors, except those graph-node refuses too.

import t from 'tap'
import { Kind, parse, type OperationDefinitionNode } from 'graphql'
import { DEMO_TRADER, seedData, type PairRow } from '../index.ts'
import { PUBLIC_CLIENT_QUERIES, type PublicClientQuery } from './fixtures/public-client-queries.ts'
import { postGraphql, startStandin, wireFields } from './fixtures/standin-client.ts'
import { clientQueryText, clientVariables as variablesOf, demoOrder, REFUSED_BY_GRAPH_NODE } from './fixtures/client-variables.ts'

const data = seedData(42161)
const demo = DEMO_TRADER.toLowerCase()

t.test('every public client query, verbatim', async (t) => {
  const standin = await startStandin(t)
  const url = standin.url(42161)
  const head = (await postGraphql<{ _meta: { block: { number: number } } }>(url, '{ _meta { block { number } } }')).data!._meta.block.number

  for (const entry of PUBLIC_CLIENT_QUERIES) {
    t.test(`${entry.client} ${entry.name} (${entry.source.repo} ${entry.source.path})`, async (t) => {
      const query = clientQueryText(entry, head)
      const answer = await postGraphql<Record<string, unknown>>(url, query, variablesOf(entry, query))
      t.equal(answer.status, 200)
      const refusal = REFUSED_BY_GRAPH_NODE[entry.name]
      if (refusal) {
        t.strictSame(
          answer.errors?.map((error) => error.message),
          refusal,
        )
        return
      }
      t.strictSame(answer.errors, undefined, 'no errors')
      const operation = parse(query).definitions[0] as OperationDefinitionNode
      const roots = operation.selectionSet.selections.map((selection) =>
        selection.kind === Kind.FIELD ? (selection.alias ?? selection.name).value : '',
      )
      t.strictSame(Object.keys(answer.data ?? {}).sort(), roots.sort(), 'data for every root field')
    })
  }
})

t.test('what the SDKs read back', async (t) => {
  const standin = await startStandin(t)
  const url = standin.url(42161)
  const query = (client: string, name: string) => PUBLIC_CLIENT_QUERIES.find((entry) => entry.client === client && entry.name === name)!
  const run = async <Data>(entry: PublicClientQuery, variables = variablesOf(entry)) => {
    const answer = await postGraphql<Data>(url, entry.query, variables)
    if (answer.errors || !answer.data) throw new Error(JSON.stringify(answer.errors))
    return answer.data
  }
  const pairOf = (id: string): PairRow => data.pairs.find((pair) => pair.id === id)!

  t.test('open trades of a checksummed address (`$trader: Bytes!`), with the pair accumulators', async (t) => {
    const { trades } = await run<{ trades: Array<Record<string, unknown>> }>(query('python-sdk', 'get_open_trades'))
    const expected = data.trades.filter((trade) => trade.trader === demo && trade.isOpen)
    t.equal(trades.length, 8)
    t.strictSame(
      trades.map((trade) => trade.tradeID),
      expected.map((trade) => trade.tradeID).sort(),
      'ordered by id, as graph-node orders without orderBy',
    )
    const first = trades[0]!
    const row = expected.find((trade) => trade.tradeID === first.tradeID)!
    t.strictSame(wireFields(first, ['funding', 'rollover']), wireFields(row, ['funding', 'rollover']))
    t.equal((first.pair as { accFundingLong: string }).accFundingLong, String(pairOf(row.pair).accFundingLong))
  })

  t.test('the same with `$trader: String!`, skip and first (the connector)', async (t) => {
    const { trades } = await run<{ trades: Array<{ tradeID: string; timestamp: string }> }>(
      query('stocksharp-connector', '_openTradesQuery'),
    )
    t.equal(trades.length, 8)
    const timestamps = trades.map((trade) => BigInt(trade.timestamp))
    t.ok(
      timestamps.every((value, index) => index === 0 || value <= timestamps[index - 1]!),
      'newest first',
    )
  })

  t.test('resting orders: limits with uniqueId, block, executionStarted; pending market orders by "Market"', async (t) => {
    const answer = await run<{ limits: Array<{ id: string }>; orders: Array<{ id: string }> }>(
      query('hyperindex-converter-tests', '14. GET_OPEN_ORDERS'),
      {
        trader: DEMO_TRADER,
      },
    )
    t.equal(answer.limits.length, 12)
    const pending = data.orders.filter(
      (order) => order.trader === demo && order.isPending && !order.isCancelled && order.orderType === 'Market',
    )
    t.strictSame(
      answer.orders.map((order) => order.id),
      pending.map((order) => order.id).sort(),
    )
    t.ok(pending.length > 0)
  })

  t.test('an order by id (`$order_id: ID!` in a where filter)', async (t) => {
    const { orders } = await run<{ orders: Array<Record<string, unknown>> }>(query('typescript-sdk', 'GET_ORDER_BY_ID'))
    t.equal(orders.length, 1)
    t.strictSame(
      wireFields(orders[0]!, ['id', 'tradeID', 'orderType', 'orderAction', 'cancelReason', 'executedTx']),
      wireFields(demoOrder, ['id', 'tradeID', 'orderType', 'orderAction', 'cancelReason', 'executedTx']),
    )
  })

  t.test('the metadata row and the liquidation margin threshold', async (t) => {
    const { metaDatas } = await run<{ metaDatas: Array<{ liqMarginThresholdP: string }> }>(
      query('python-sdk', 'get_liq_margin_threshold_p'),
    )
    t.strictSame(metaDatas, [{ liqMarginThresholdP: '2500' }])
  })

  t.test('a pair with its group caps and fee tier', async (t) => {
    const { pair } = await run<{ pair: Record<string, unknown> }>(query('typescript-sdk', 'GET_PAIR_DETAILS'))
    const row = pairOf('0')
    t.equal(pair.feed, row.feed)
    t.equal(pair.makerMaxLeverage, String(row.makerMaxLeverage))
    const group = data.groups.find((candidate) => candidate.id === row.group)!
    t.strictSame(
      pair.group,
      wireFields(group, ['id', 'name', 'minLeverage', 'maxLeverage', 'maxCollateralP', 'longCollateral', 'shortCollateral']),
    )
  })
})
