// first/skip bounds with The Graph's messages, deep paging with a `_gt` filter, orderBy/orderDirection.

import t from 'tap'
import { DEMO_TRADER, MAX_SKIP, WHALE_TRADER, seedData } from '../index.ts'
import { postGraphql, queryData, startStandin } from './fixtures/standin-client.ts'

const WHALE_RESTING = `query($trader: Bytes!, $first: Int, $skip: Int, $after: BigInt) {
  limits(where: { trader: $trader, isActive: true, initiatedAt_gt: $after }, first: $first, skip: $skip,
         orderBy: initiatedAt, orderDirection: asc) { id initiatedAt }
}`

type LimitPage = { limits: Array<{ id: string; initiatedAt: string }> }

t.test('paging', async (t) => {
  const standin = await startStandin(t)
  const url = standin.url(42161)
  const data = seedData(42161)
  const whaleResting = data.limits
    .filter((limit) => limit.trader === WHALE_TRADER && limit.isActive)
    .sort((a, b) => Number(a.initiatedAt - b.initiatedAt))
    .map((limit) => limit.id)

  t.test('`first` above 1000 or below 0 is refused with a GraphQL error on HTTP 200', async (t) => {
    for (const first of [1001, -1]) {
      const answer = await postGraphql<unknown>(url, WHALE_RESTING, { trader: WHALE_TRADER, first, after: '0' })
      t.equal(answer.status, 200)
      t.equal(answer.data, null)
      t.strictSame(
        answer.errors?.map((error) => error.message),
        [`The \`first\` argument must be between 0 and 1000, but is ${first}`],
      )
    }
    const atCeiling = await queryData<LimitPage>(url, WHALE_RESTING, { trader: WHALE_TRADER, first: 1000, after: '0' })
    t.equal(atCeiling.limits.length, 1000)
  })

  t.test('`skip` above 5000 is refused; 5000 itself is allowed', async (t) => {
    const refused = await postGraphql<unknown>(url, WHALE_RESTING, { trader: WHALE_TRADER, skip: 5001, after: '0' })
    t.equal(refused.status, 200)
    t.strictSame(
      refused.errors?.map((error) => error.message),
      ['The `skip` argument must be between 0 and 5000, but is 5001'],
    )
    const deepest = await queryData<LimitPage>(url, WHALE_RESTING, { trader: WHALE_TRADER, first: 1000, skip: MAX_SKIP, after: '0' })
    t.strictSame(
      deepest.limits.map((limit) => limit.id),
      whaleResting.slice(5000, 6000),
    )
    t.ok(whaleResting.length > 6000, 'skip and first alone cannot reach every row')
  })

  t.test('an initiatedAt_gt cursor pages through every row, past the skip ceiling', async (t) => {
    const collected: string[] = []
    let after = '0'
    for (;;) {
      const page = await queryData<LimitPage>(url, WHALE_RESTING, { trader: WHALE_TRADER, first: 1000, after })
      collected.push(...page.limits.map((limit) => limit.id))
      const last = page.limits.at(-1)
      if (!last) break
      after = last.initiatedAt
    }
    t.equal(collected.length, whaleResting.length)
    t.strictSame(collected, whaleResting)
  })

  t.test('orderBy and orderDirection, ties broken by id', async (t) => {
    const query = `query($trader: Bytes!, $direction: OrderDirection) {
      orders(where: { trader: $trader, isPending: false }, first: 1000, orderBy: executedAt, orderDirection: $direction) { id }
    }`
    const settled = data.orders
      .filter((order) => order.trader === DEMO_TRADER.toLowerCase() && !order.isPending)
      .sort((a, b) => Number(a.executedAt - b.executedAt))
      .map((order) => order.id)
    const ascending = await queryData<{ orders: Array<{ id: string }> }>(url, query, { trader: DEMO_TRADER, direction: 'asc' })
    const descending = await queryData<{ orders: Array<{ id: string }> }>(url, query, { trader: DEMO_TRADER, direction: 'desc' })
    t.strictSame(
      ascending.orders.map((order) => order.id),
      settled,
    )
    t.strictSame(
      descending.orders.map((order) => order.id),
      [...settled].reverse(),
    )

    const byGroup = await queryData<{ pairs: Array<{ id: string; group: { id: string } }> }>(
      url,
      '{ pairs(first: 1000, orderBy: group, orderDirection: desc) { id group { id } } }',
    )
    const expected = [...data.pairs]
      .sort((a, b) => (a.group === b.group ? (a.id < b.id ? 1 : -1) : a.group < b.group ? 1 : -1))
      .map((pair) => pair.id)
    t.strictSame(
      byGroup.pairs.map((pair) => pair.id),
      expected,
    )
  })

  t.test('unexecuted orders hold executedAt 0, so they come last in descending executedAt', async (t) => {
    const answer = await queryData<{ orders: Array<{ isPending: boolean; executedAt: string }> }>(
      url,
      `query($trader: Bytes!) { orders(where: { trader: $trader }, first: 1000, orderBy: executedAt, orderDirection: desc) { isPending executedAt } }`,
      { trader: DEMO_TRADER },
    )
    t.strictSame(
      answer.orders.slice(-3).map((order) => [order.isPending, order.executedAt]),
      [
        [false, answer.orders.at(-3)!.executedAt],
        [true, '0'],
        [true, '0'],
      ],
    )
    t.not(answer.orders.at(-3)!.executedAt, '0')
  })

  t.test('without first and orderBy: 100 rows in id order', async (t) => {
    const answer = await queryData<{ orders: Array<{ id: string }> }>(url, '{ orders { id } }')
    const expected = data.orders
      .map((order) => order.id)
      .sort()
      .slice(0, 100)
    t.strictSame(
      answer.orders.map((order) => order.id),
      expected,
    )
  })
})
