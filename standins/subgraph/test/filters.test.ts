// `where` filters: address spelling, comparison suffixes, lists, relations, and/or, bad input.

import t from 'tap'
import { DEMO_TRADER, WHALE_TRADER, seedData } from '../index.ts'
import { postGraphql, queryData, startStandin } from './fixtures/standin-client.ts'

type Ids = Record<string, Array<{ id: string }>>

function ids(answer: Ids, collection: string): string[] {
  return (answer[collection] ?? []).map((row) => row.id)
}

t.test('filters', async (t) => {
  const standin = await startStandin(t)
  const url = standin.url(42161)
  const data = seedData(42161)
  const demo = DEMO_TRADER.toLowerCase()
  const demoOrders = data.orders.filter((order) => order.trader === demo)
  const sortedIds = (rows: ReadonlyArray<{ id: string }>) => rows.map((row) => row.id).sort()

  t.test('addresses match whatever their letter case, and come back lowercase', async (t) => {
    const query = 'query($trader: Bytes!) { orders(first: 1000, where: { trader: $trader }) { id trader } }'
    for (const spelling of [DEMO_TRADER, demo, DEMO_TRADER.toUpperCase().replace('0X', '0x')]) {
      const answer = await queryData<{ orders: Array<{ id: string; trader: string }> }>(url, query, { trader: spelling })
      t.strictSame(
        answer.orders.map((order) => order.id),
        sortedIds(demoOrders),
        spelling,
      )
      t.ok(answer.orders.every((order) => order.trader === demo))
    }
    const literal = await queryData<Ids>(
      url,
      `{ trades(first: 1000, where: { trader_in: ["${DEMO_TRADER}", "${WHALE_TRADER.toUpperCase().replace('0X', '0x')}"], isOpen: true }) { id } }`,
    )
    const expected = data.trades.filter((trade) => (trade.trader === demo || trade.trader === WHALE_TRADER) && trade.isOpen)
    t.strictSame(ids(literal, 'trades'), sortedIds(expected))
  })

  t.test('BigInt comparisons take strings or integers', async (t) => {
    const answer = await queryData<Ids>(
      url,
      `query($trader: Bytes!) { orders(first: 1000, where: { trader: $trader, collateral_gte: "1000000000", collateral_lt: 3000000000, isPending_not: true }) { id } }`,
      { trader: DEMO_TRADER },
    )
    const expected = demoOrders.filter(
      (order) => order.collateral >= 1_000_000_000n && order.collateral < 3_000_000_000n && !order.isPending,
    )
    t.ok(expected.length > 0)
    t.strictSame(ids(answer, 'orders'), sortedIds(expected))
  })

  t.test('relations filter by the id they hold; _in, _not_in and _not', async (t) => {
    const answer = await queryData<Ids>(
      url,
      `query($trader: Bytes!) {
        inPairs: orders(first: 1000, where: { trader: $trader, pair_in: ["0", "1", "9"] }) { id }
        notInPairs: orders(first: 1000, where: { trader: $trader, pair_not_in: ["0", "1", "9"], orderType_not: "Market" }) { id }
      }`,
      { trader: DEMO_TRADER },
    )
    const inPairs = demoOrders.filter((order) => ['0', '1', '9'].includes(order.pair))
    const notInPairs = demoOrders.filter((order) => !['0', '1', '9'].includes(order.pair) && order.orderType !== 'Market')
    t.ok(inPairs.length > 0 && notInPairs.length > 0)
    t.strictSame(ids(answer, 'inPairs'), sortedIds(inPairs))
    t.strictSame(ids(answer, 'notInPairs'), sortedIds(notInPairs))
  })

  t.test(
    'order kinds are strings, as the deployment types them: quoted values and String variables filter, bare names are refused',
    async (t) => {
      const answer = await queryData<Ids>(
        url,
        `query($trader: Bytes!, $asString: String) {
        quoted: orders(first: 1000, where: { trader: $trader, orderType_in: ["Limit", "Stop"], orderAction: "Open", cancelReason: "NONE" }) { id }
        byString: orders(first: 1000, where: { trader: $trader, orderType: $asString }) { id }
        upperCase: orders(first: 1000, where: { trader: $trader, orderType: "MARKET" }) { id }
        prefix: orders(first: 1000, where: { trader: $trader, cancelReason_starts_with: "SL" }) { id }
      }`,
        { trader: DEMO_TRADER, asString: 'Limit' },
      )
      const limitOrStop = demoOrders.filter(
        (order) => ['Limit', 'Stop'].includes(order.orderType) && order.orderAction === 'Open' && order.cancelReason === 'NONE',
      )
      const limit = demoOrders.filter((order) => order.orderType === 'Limit')
      const slippage = demoOrders.filter((order) => order.cancelReason.startsWith('SL'))
      t.ok(limitOrStop.length > 0 && limit.length > 0 && slippage.length > 0)
      t.strictSame(ids(answer, 'quoted'), sortedIds(limitOrStop))
      t.strictSame(ids(answer, 'byString'), sortedIds(limit))
      t.strictSame(ids(answer, 'upperCase'), [], 'an unknown kind is simply not stored')
      t.strictSame(ids(answer, 'prefix'), sortedIds(slippage))
      // graph-node coerces only a string literal to a String (graphql/src/values/coercion.rs, `MaybeCoercible<ScalarType>`)
      const bare = await postGraphql<unknown>(url, '{ orders(where: { orderType: Market }) { id } }')
      t.strictSame(
        bare.errors?.map((error) => error.message),
        ['String cannot represent a non string value: Market'],
      )
    },
  )

  t.test('unexecuted orders hold zeros, not nulls: a null test matches nothing, `_not: null` everything', async (t) => {
    const answer = await queryData<Ids>(
      url,
      `query($trader: Bytes!) {
        unsettled: orders(where: { trader: $trader, executedAt: "0", executedTx: "0x" }) { id }
        nulls: orders(where: { trader: $trader, executedAt: null }) { id }
        notNull: orders(first: 1000, where: { trader: $trader, executedAt_not: null }) { id }
      }`,
      { trader: DEMO_TRADER },
    )
    const unsettled = demoOrders.filter((order) => order.executedAt === 0n)
    t.ok(unsettled.length > 0 && unsettled.every((order) => order.isPending))
    t.strictSame(ids(answer, 'unsettled'), sortedIds(unsettled))
    t.strictSame(ids(answer, 'nulls'), [])
    t.strictSame(ids(answer, 'notNull'), sortedIds(demoOrders))
  })

  t.test('nested filters on a relation, text filters, and ordering by a related field', async (t) => {
    const answer = await queryData<{ orders: Array<{ id: string; pair: { from: string } }>; pairs: Array<{ id: string }> }>(
      url,
      `query($trader: String!) {
        orders(first: 1000, where: { trader: $trader, pair_: { from_starts_with_nocase: "bt" } }, orderBy: pair__from) { id pair { from } }
        pairs(first: 1000, where: { from_contains: "US", to_not: "USD", to_not_ends_with: "Y" }) { id }
      }`,
      { trader: DEMO_TRADER },
    )
    const btcPairs = new Set(data.pairs.filter((pair) => pair.from.toLowerCase().startsWith('bt')).map((pair) => pair.id))
    t.strictSame(
      answer.orders.map((order) => order.id),
      sortedIds(demoOrders.filter((order) => btcPairs.has(order.pair))),
    )
    t.ok(answer.orders.every((order) => order.pair.from === 'BTC'))
    const expectedPairs = data.pairs.filter((pair) => pair.from.includes('US') && pair.to !== 'USD' && !pair.to.endsWith('Y'))
    t.ok(expectedPairs.length > 0)
    t.strictSame(ids(answer, 'pairs'), sortedIds(expectedPairs))
  })

  t.test('variables of a neighbouring type, as graph-node accepts them; others refused', async (t) => {
    const lenient = await queryData<Ids>(
      url,
      `query($trader: String!, $id: String!, $ids: [Bytes!], $since: Int) {
        trades(first: 1000, where: { trader: $trader, isOpen: true, timestamp_gt: $since }) { id }
        pair(id: $id) { id }
        users(where: { id_in: $ids }) { id }
      }`,
      { trader: DEMO_TRADER, id: '5', ids: [demo], since: 0 },
    )
    t.strictSame(ids(lenient, 'trades'), sortedIds(data.trades.filter((trade) => trade.trader === demo && trade.isOpen)))
    t.strictSame(lenient.pair, { id: '5' })
    t.strictSame(ids(lenient, 'users'), [demo])
    const refused = await postGraphql<unknown>(url, 'query($open: String) { trades(where: { isOpen: $open }) { id } }', { open: 'yes' })
    t.strictSame(
      refused.errors?.map((error) => error.message),
      ['Variable "$open" of type "String" used in position expecting type "Boolean".'],
    )
  })

  t.test('and / or', async (t) => {
    const answer = await queryData<Ids>(
      url,
      `query($trader: Bytes!) {
        orders(first: 1000, where: { trader: $trader, or: [{ isCancelled: true }, { and: [{ orderAction: "Close" }, { orderType: "LIQ" }] }] }) { id }
      }`,
      { trader: DEMO_TRADER },
    )
    const expected = demoOrders.filter((order) => order.isCancelled || (order.orderAction === 'Close' && order.orderType === 'LIQ'))
    t.strictSame(ids(answer, 'orders'), sortedIds(expected))
  })

  t.test('filter inputs are named and typed as graph-node generates them (introspection works)', async (t) => {
    const answer = await queryData<{
      __type: { inputFields: Array<{ name: string; type: { name: string | null; ofType: { ofType: { name: string } | null } | null } }> }
    }>(url, '{ __type(name: "Trade_filter") { inputFields { name type { name ofType { ofType { name } } } } } }')
    const fields = new Map(answer.__type.inputFields.map((field) => [field.name, field.type]))
    t.strictSame(
      ['trader', 'trader_not', 'trader_gt', 'trader_gte', 'trader_lt', 'trader_lte', 'trader_in', 'trader_not_in'].map((key) =>
        fields.has(key),
      ),
      Array(8).fill(true),
    )
    t.strictSame(
      ['isOpen', 'isOpen_not', 'isOpen_in', 'isOpen_not_in', 'isOpen_gt'].map((key) => fields.has(key)),
      [true, true, true, true, false],
    )
    t.strictSame([fields.get('trader')?.name, fields.get('timestamp_gt')?.name, fields.get('pair')?.name], ['Bytes', 'BigInt', 'String'])
    t.equal(fields.get('pair_in')?.ofType?.ofType?.name, 'String')
    t.strictSame([fields.get('tradeType')?.name, fields.get('tradeType_in')?.ofType?.ofType?.name], ['String', 'String'])
    t.ok(fields.has('tradeType_not_ends_with_nocase'), 'a String field has the text tests')
    t.strictSame([fields.has('pair_'), fields.has('_change_block'), fields.has('and'), fields.has('or')], [true, true, true, true])
  })

  t.test('malformed values and unknown filter keys are GraphQL errors', async (t) => {
    const badAddress = await postGraphql<unknown>(url, '{ trades(where: { trader: "0xnothex" }) { id } }')
    t.equal(badAddress.status, 200)
    t.match(badAddress.errors?.[0]?.message, /Invalid Bytes value: 0xnothex/)
    const unknownKey = await postGraphql<unknown>(url, '{ trades(where: { trader_starts_with: "0x" }) { id } }')
    t.equal(unknownKey.status, 200)
    t.match(unknownKey.errors?.[0]?.message, /trader_starts_with/)
    const unknownField = await postGraphql<unknown>(url, '{ limits { id builder } }')
    t.strictSame(
      unknownField.errors?.map((error) => error.message),
      ['Type `Limit` has no field `builder`'],
    )
  })
})
