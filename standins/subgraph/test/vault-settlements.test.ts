// The vault's settlement cycle (Settlement, DepositRequest, WithdrawRequest, MMAction, and the LpShare
// and Vault fields it sets): every field as stored, filters, ordering and paging as graph-node answers
// them, and the rows agreeing with each other.

import t from 'tap'
import { DEMO_TRADER, seedData, type DepositRequestRow, type SettlementRow } from '../index.ts'
import { postGraphql, queryData, selection, startStandin, wireFields } from './fixtures/standin-client.ts'

const data = seedData(42161)
const demo = DEMO_TRADER.toLowerCase()
const ids = (rows: ReadonlyArray<{ id: string }>) => rows.map((row) => row.id)
const byNumber = (a: bigint, b: bigint) => (a < b ? -1 : a > b ? 1 : 0)
/** graph-node's default order: by id, as text */
const byId = <R extends { id: string }>(rows: readonly R[]) => [...rows].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))

const SETTLEMENT_FIELDS = Object.keys(data.settlements[0]!)
const DEPOSIT_FIELDS = Object.keys(data.depositRequests[0]!).filter((field) => field !== 'settlement')
const WITHDRAW_FIELDS = Object.keys(data.withdrawRequests[0]!).filter((field) => field !== 'settlement')
const MM_FIELDS = Object.keys(data.mmactions[0]!)

t.test('the seeded cycle', async (t) => {
  const settled = data.settlements.filter(
    (settlement) => settlement.depositRequestIds.length > 0 || settlement.withdrawRequestIds.length > 0,
  )
  t.equal(data.settlements.length, 61, '60 settled a day apart, and the open one')
  t.ok(settled.length > 50)
  t.ok(data.depositRequests.length > 100, 'more deposit requests than one default page')
  for (const state of ['settled', 'cancelled', 'claimed', 'reclaimed'] as const) {
    t.ok(
      data.depositRequests.some((request) => request[state]),
      `some deposits ${state}`,
    )
  }
  t.ok(
    data.depositRequests.some((request) => !request.settled && !request.cancelled),
    'some deposits pending',
  )
  t.ok(data.withdrawRequests.some((request) => request.settled) && data.withdrawRequests.some((request) => !request.settled))
  t.ok(data.mmactions.some((action) => action.receiver === null) && data.mmactions.some((action) => action.receiver !== null))

  const vault = data.vaults[0]!
  const lastSettled = data.settlements[59]!
  t.equal(vault.lastSettlementId, lastSettled.settlementId)
  t.equal(vault.lastSettlementTs, lastSettled.timestamp)
  t.equal(lastSettled.totalSupply, vault.shares, 'the series ends at the vault row')
  t.equal(lastSettled.shareToAssetsPrice, vault.sharePrice)
  const pending = data.depositRequests.filter((request) => !request.settled && !request.cancelled)
  t.equal(
    vault.totalPendingDepositAssets,
    pending.reduce((total, request) => total + request.assets, 0n),
  )
  t.equal(vault.requestsCount, BigInt(data.depositRequests.length + data.withdrawRequests.length))
  for (const settlement of data.settlements) {
    const pointing = data.depositRequests.filter((request) => request.settlement === settlement.id)
    if (settlement.depositRequestIds.join() !== ids(pointing).join()) t.fail(`settlement ${settlement.id} lists its deposit requests`)
  }
  for (const request of data.depositRequests.filter((row) => row.settled && !row.reclaimed)) {
    const settlement = data.settlements.find((row) => row.id === request.settlement)!
    if (request.shareToAssetsPrice !== settlement.shareToAssetsPrice || request.settledAt !== settlement.timestamp) {
      t.fail(`deposit ${request.id} is priced at its settlement`)
    }
  }
})

t.test('the entities over GraphQL', async (t) => {
  const standin = await startStandin(t)
  const url = standin.url(42161)

  t.test('every field as stored: BigInt as text, lists, nulls, and the settlement a request points at', async (t) => {
    const answer = await queryData<{
      settlements: Array<Record<string, unknown>>
      depositRequests: Array<Record<string, unknown>>
      withdrawRequests: Array<Record<string, unknown>>
      mmactions: Array<Record<string, unknown>>
    }>(
      url,
      `{
        settlements(first: 1000, orderBy: settlementId) { ${selection(SETTLEMENT_FIELDS)} }
        depositRequests(first: 1000, orderBy: requestedAt) { ${selection(DEPOSIT_FIELDS)} settlement { id timestamp shareToAssetsPrice } }
        withdrawRequests(first: 1000, orderBy: requestedAt) { ${selection(WITHDRAW_FIELDS)} settlement { id } }
        mmactions(first: 1000, orderBy: timestamp) { ${selection(MM_FIELDS)} }
      }`,
    )
    const settlementOf = (id: string) => data.settlements.find((settlement) => settlement.id === id)!
    t.strictSame(
      answer.settlements,
      data.settlements.map((row) => wireFields(row, SETTLEMENT_FIELDS)),
    )
    t.strictSame(
      answer.depositRequests,
      [...data.depositRequests]
        .sort((a, b) => byNumber(a.requestedAt, b.requestedAt))
        .map((row) => ({
          ...wireFields(row, DEPOSIT_FIELDS),
          settlement: wireFields(settlementOf(row.settlement), ['id', 'timestamp', 'shareToAssetsPrice']),
        })),
    )
    t.strictSame(
      answer.withdrawRequests,
      [...data.withdrawRequests]
        .sort((a, b) => byNumber(a.requestedAt, b.requestedAt))
        .map((row) => ({ ...wireFields(row, WITHDRAW_FIELDS), settlement: { id: row.settlement } })),
    )
    t.strictSame(
      answer.mmactions,
      [...data.mmactions].sort((a, b) => byNumber(a.timestamp, b.timestamp)).map((row) => wireFields(row, MM_FIELDS)),
    )
  })

  t.test('filters: owner spelling, states, nulls, a nested settlement filter, list fields', async (t) => {
    const answer = await queryData<Record<string, Array<{ id: string }>>>(
      url,
      `query($owner: String!) {
        mine: depositRequests(first: 1000, where: { owner: $owner }) { id }
        pending: depositRequests(first: 1000, where: { settled: false, cancelled: false }) { id }
        unsettled: depositRequests(first: 1000, where: { settledAt: null }) { id }
        unclaimed: depositRequests(first: 1000, where: { settled: true, claimTxHash: null }) { id }
        failed: depositRequests(first: 1000, where: { settlement_: { depositsFailed: true } }) { id }
        early: withdrawRequests(first: 1000, where: { settlement_in: ["1", "2", "3"] }) { id }
        listing: settlements(first: 1000, where: { depositRequestIds_contains: ["1"] }) { id }
        notListing: settlements(first: 1000, where: { depositRequestIds_not_contains: ["1", "2"] }) { id }
        exactly: settlements(first: 1000, where: { withdrawRequestIds: [] }) { id }
        none: settlements(where: { id_in: [] }) { id }
        allButNone: settlements(first: 1000, where: { id_not_in: [] }) { id }
        withdrawingMm: mmactions(first: 1000, where: { receiver_not: null, type: "WITHDRAW" }) { id }
      }`,
      { owner: DEMO_TRADER },
    )
    const match = <R extends { id: string }>(rows: readonly R[], test: (row: R) => boolean) => ids(byId(rows.filter(test)))
    const deposits = data.depositRequests
    const failedSettlements = new Set(data.settlements.filter((row) => row.depositsFailed).map((row) => row.id))
    t.ok(match(deposits, (row) => row.owner === demo).length > 0)
    t.strictSame(
      ids(answer.mine!),
      match(deposits, (row) => row.owner === demo),
      'a checksummed owner matches',
    )
    t.strictSame(
      ids(answer.pending!),
      match(deposits, (row) => !row.settled && !row.cancelled),
    )
    t.strictSame(
      ids(answer.unsettled!),
      match(deposits, (row) => row.settledAt === null),
    )
    t.strictSame(
      ids(answer.unclaimed!),
      match(deposits, (row) => row.settled && row.claimTxHash === null),
    )
    t.ok(failedSettlements.size === 1)
    t.strictSame(
      ids(answer.failed!),
      match(deposits, (row) => failedSettlements.has(row.settlement)),
    )
    t.strictSame(
      ids(answer.early!),
      match(data.withdrawRequests, (row) => ['1', '2', '3'].includes(row.settlement)),
    )
    t.strictSame(
      ids(answer.listing!),
      match(data.settlements, (row) => row.depositRequestIds.includes('1')),
    )
    t.strictSame(
      ids(answer.notListing!),
      match(data.settlements, (row) => !row.depositRequestIds.some((id) => id === '1' || id === '2')),
      '`_not_contains`: none of the values',
    )
    t.strictSame(
      ids(answer.exactly!),
      match(data.settlements, (row) => row.withdrawRequestIds.length === 0),
    )
    t.strictSame([ids(answer.none!), ids(answer.allButNone!)], [[], []], 'an empty `_in` or `_not_in` matches nothing')
    t.strictSame(
      ids(answer.withdrawingMm!),
      match(data.mmactions, (row) => row.receiver !== null && row.type === 'WITHDRAW'),
    )
  })

  t.test('ordering: ids as text, numbers as numbers, nulls last ascending and first descending, by the settlement', async (t) => {
    const answer = await queryData<{
      byDefault: Array<{ id: string }>
      byNumber: Array<{ id: string }>
      settledAsc: Array<{ id: string; settledAt: string | null }>
      settledDesc: Array<{ id: string; settledAt: string | null }>
      bySettlementTime: Array<{ id: string }>
    }>(
      url,
      `{
        byDefault: settlements(first: 1000) { id }
        byNumber: settlements(first: 1000, orderBy: settlementId, orderDirection: desc) { id }
        settledAsc: depositRequests(first: 1000, orderBy: settledAt) { id settledAt }
        settledDesc: depositRequests(first: 1000, orderBy: settledAt, orderDirection: "desc") { id settledAt }
        bySettlementTime: withdrawRequests(first: 1000, orderBy: settlement__timestamp, orderDirection: desc) { id }
      }`,
    )
    t.strictSame(
      answer.byDefault.slice(0, 4).map((row) => row.id),
      ['1', '10', '11', '12'],
    )
    t.strictSame(
      ids(answer.byNumber),
      [...data.settlements].sort((a, b) => byNumber(b.settlementId, a.settlementId)).map((row) => row.id),
    )
    const nulls = data.depositRequests.filter((row) => row.settledAt === null).length
    t.ok(nulls > 0)
    t.ok(
      answer.settledAsc.slice(-nulls).every((row) => row.settledAt === null),
      'ascending: nulls last',
    )
    t.ok(
      answer.settledDesc.slice(0, nulls).every((row) => row.settledAt === null),
      'descending: nulls first',
    )
    const settlementTime = (row: { settlement: string }) =>
      data.settlements.find((settlement) => settlement.id === row.settlement)!.timestamp
    t.strictSame(
      ids(answer.bySettlementTime),
      [...data.withdrawRequests]
        .sort((a, b) => byNumber(settlementTime(b), settlementTime(a)) || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0))
        .map((row) => row.id),
      'ties broken by id in the same direction',
    )
  })

  t.test('paging: 100 rows by default, skip and first, and an id cursor', async (t) => {
    const ordered = [...data.depositRequests].sort((a, b) => byNumber(a.requestedAt, b.requestedAt))
    const answer = await queryData<Record<string, Array<{ id: string; requestedAt: string }>>>(
      url,
      `{
        firstPage: depositRequests(orderBy: requestedAt) { id requestedAt }
        secondPage: depositRequests(orderBy: requestedAt, skip: 100) { id requestedAt }
        window: depositRequests(orderBy: requestedAt, skip: 10, first: 5) { id requestedAt }
      }`,
    )
    t.equal(answer.firstPage!.length, 100)
    t.strictSame(ids([...answer.firstPage!, ...answer.secondPage!]), ids(ordered), 'two pages are the whole list, in order')
    t.strictSame(ids(answer.window!), ids(ordered.slice(10, 15)))
    const after = answer.firstPage!.at(-1)!.requestedAt
    const next = await queryData<{ depositRequests: Array<{ id: string }> }>(
      url,
      `query($after: BigInt) { depositRequests(first: 1000, orderBy: requestedAt, where: { requestedAt_gt: $after }) { id } }`,
      { after },
    )
    t.strictSame(ids(next.depositRequests), ids(answer.secondPage!), 'a `_gt` cursor continues where the page ended')
    const tooFar = await postGraphql<unknown>(url, '{ settlements(skip: 5001) { id } }')
    t.strictSame(
      tooFar.errors?.map((error) => error.message),
      ['The `skip` argument must be between 0 and 5000, but is 5001'],
    )
  })

  t.test('single rows by id, and the LP and vault fields the cycle sets', async (t) => {
    const request: DepositRequestRow = data.depositRequests.find((row) => row.reclaimed)!
    const settlement: SettlementRow = data.settlements[0]!
    const lpShare = data.lpShares.find((row) => row.pendingDepositAssets !== 0n)!
    const answer = await queryData<Record<string, unknown>>(
      url,
      `query($request: ID!, $settlement: ID!, $mm: ID!, $lp: ID!) {
        depositRequest(id: $request) { id refundedAssets reclaimed shares }
        settlement(id: $settlement) { id totalSupply depositRequestIds }
        mmaction(id: $mm) { id assets }
        withdrawRequest(id: "no such request") { id }
        lpShare(id: $lp) { id pendingDepositAssets pendingWithdrawShares }
        vault(id: "usdc-vault") { lastSettlementId lastSettlementTs totalPendingDepositAssets totalPendingWithdrawShares requestsEvery }
      }`,
      { request: request.id, settlement: settlement.id, mm: data.mmactions[0]!.id, lp: lpShare.id },
    )
    t.strictSame(answer.depositRequest, wireFields(request, ['id', 'refundedAssets', 'reclaimed', 'shares']))
    t.strictSame(answer.settlement, wireFields(settlement, ['id', 'totalSupply', 'depositRequestIds']))
    t.strictSame(answer.mmaction, wireFields(data.mmactions[0]!, ['id', 'assets']))
    t.equal(answer.withdrawRequest, null)
    t.strictSame(answer.lpShare, wireFields(lpShare, ['id', 'pendingDepositAssets', 'pendingWithdrawShares']))
    t.strictSame(
      answer.vault,
      wireFields(data.vaults[0]!, [
        'lastSettlementId',
        'lastSettlementTs',
        'totalPendingDepositAssets',
        'totalPendingWithdrawShares',
        'requestsEvery',
      ]),
    )
  })
})
