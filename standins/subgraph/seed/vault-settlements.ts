// The vault's request-and-settle cycle (the live subgraph's Settlement, DepositRequest, WithdrawRequest
// and MMAction entities): wallets request deposits (USDC) and withdrawals (shares) during a window; a
// settlement at the window's end prices the shares once for all of them; a settled request is claimed
// later, or not yet. The last window is still open: its requests point at the next settlement, which
// exists already (as the deployment's non-null `settlement` relation requires) without figures. The
// series ends at the vault row's shares and share price, so the two agree.

import type { DepositRequestRow, LpShareRow, MMActionRow, SettlementRow, VaultRow, WithdrawRequestRow } from '../entities.ts'
import type { Random } from './random.ts'
import { SEED_HEAD_TIMESTAMP } from './timeline.ts'
import { toE18, toUsdc } from './units.ts'

const DAY = 86_400
/** the market maker's wallet (not a trader of the seed) */
export const MARKET_MAKER = '0x5e0c3a8a2b1f4d6e7c9b8a7f6e5d4c3b2a1f0e9d'
/** the share price's decimals, as the vault row's sharePrice */
const PRICE_ONE = 1_000_000n

export interface VaultSettlements {
  settlements: SettlementRow[]
  depositRequests: DepositRequestRow[]
  withdrawRequests: WithdrawRequestRow[]
  mmactions: MMActionRow[]
  lpShares: LpShareRow[]
  /** the Vault fields the cycle sets */
  vault: Pick<
    VaultRow,
    | 'lastSettlementId'
    | 'lastSettlementTs'
    | 'lastSettlementOpenPnl'
    | 'maxSettlementInterval'
    | 'withdrawSettlementDelay'
    | 'totalPendingDepositAssets'
    | 'totalPendingWithdrawShares'
    | 'requestsStart'
    | 'requestsEvery'
    | 'requestsCount'
  >
}

/** `settled` settlements, one a day, the last a day before the data ends; then the open one. */
export function buildVaultSettlements(
  random: Random,
  wallets: readonly string[],
  settled: number,
  final: { shares: bigint; sharePrice: bigint },
): VaultSettlements {
  const firstWindowStart = SEED_HEAD_TIMESTAMP - (settled + 1) * DAY
  const timeOf = (settlementId: number) => BigInt(firstWindowStart + settlementId * DAY)
  const prices = pricesEndingAt(random, settled, final.sharePrice)
  const deposits: DepositRequestRow[] = []
  const withdraws: WithdrawRequestRow[] = []
  const mmactions: MMActionRow[] = []
  // one settlement fails its deposits: they are refunded and reclaimed
  const failedDeposits = Math.max(1, Math.floor(settled / 3))

  for (let settlementId = 1; settlementId <= settled + 1; settlementId++) {
    const isOpen = settlementId > settled
    const windowStart = Number(timeOf(settlementId - 1))
    const settledAt = isOpen ? null : timeOf(settlementId)
    const price = prices[settlementId - 1]!
    const requestTime = () => BigInt(windowStart + random.int(60, DAY - 60))
    const requestNumbered = (id: number): RequestTerms => ({
      id: String(id),
      owner: random.pick(wallets),
      settlementId,
      requestedAt: requestTime(),
      settledAt,
      price,
    })
    for (let count = random.int(1, 3); count > 0; count--) {
      deposits.push(depositRequest(random, requestNumbered(deposits.length + 1), { failed: settlementId === failedDeposits }))
    }
    for (let count = random.int(0, 2); count > 0; count--) withdraws.push(withdrawRequest(random, requestNumbered(withdraws.length + 1)))
    if (!isOpen && random.chance(0.5)) mmactions.push(mmAction(random, settlementId, requestTime()))
  }

  const settlements = settlementRows(random, settled, timeOf, prices, final.shares, deposits, withdraws)
  const pendingDeposits = deposits.filter((request) => !request.settled && !request.cancelled)
  const pendingWithdraws = withdraws.filter((request) => !request.settled && !request.cancelled)
  const last = settlements[settled - 1]!
  return {
    settlements,
    depositRequests: deposits,
    withdrawRequests: withdraws,
    mmactions,
    lpShares: lpShares(wallets, deposits, withdraws, final.sharePrice),
    vault: {
      lastSettlementId: last.settlementId,
      lastSettlementTs: last.timestamp,
      lastSettlementOpenPnl: last.newOpenPnl,
      maxSettlementInterval: BigInt(2 * DAY),
      withdrawSettlementDelay: BigInt(DAY),
      totalPendingDepositAssets: sum(pendingDeposits.map((request) => request.assets)),
      totalPendingWithdrawShares: sum(pendingWithdraws.map((request) => request.shares)),
      requestsStart: BigInt(firstWindowStart),
      requestsEvery: BigInt(DAY),
      requestsCount: BigInt(deposits.length + withdraws.length),
    },
  }
}

/** The share price at each settlement (the open one's is the last known), ending at the vault's. */
function pricesEndingAt(random: Random, settled: number, finalPrice: bigint): bigint[] {
  const prices = [finalPrice, finalPrice]
  for (let index = settled - 1; index > 0; index--) {
    const change = random.between(-0.002, 0.003)
    prices.unshift((prices[0]! * 1_000_000n) / BigInt(Math.round((1 + change) * 1_000_000)))
  }
  return prices
}

/** A request: its wallet, the settlement it waits for, and that settlement's time (null: still open) and price. */
interface RequestTerms {
  id: string
  owner: string
  settlementId: number
  requestedAt: bigint
  settledAt: bigint | null
  price: bigint
}

/** What deposit and withdraw requests share: a few are cancelled, the rest settle with their settlement, most are claimed. */
function lifecycle(random: Random, terms: RequestTerms, claimable: boolean) {
  const cancelled = terms.settledAt !== null && random.chance(0.05)
  const settled = terms.settledAt !== null && !cancelled
  const claimedAt = settled && claimable && random.chance(0.8) ? terms.settledAt! + BigInt(random.int(600, DAY)) : 0n
  return {
    id: terms.id,
    owner: terms.owner,
    settlement: String(terms.settlementId),
    settlementId: BigInt(terms.settlementId),
    shareToAssetsPrice: settled ? terms.price : null,
    claimed: claimedAt > 0n,
    cancelled,
    settled,
    requestedAt: terms.requestedAt,
    settledAt: settled ? terms.settledAt : null,
    claimedAt,
    requestTxHash: random.hex(32),
    claimTxHash: claimedAt > 0n ? random.hex(32) : null,
  }
}

/** A deposit of USDC; in a failed settlement it is refunded and reclaimed instead of turned into shares. */
function depositRequest(random: Random, terms: RequestTerms, options: { failed: boolean }): DepositRequestRow {
  const assets = toUsdc(Math.round(random.between(100, 50_000)))
  const request = lifecycle(random, terms, !options.failed)
  const converted = request.settled && !options.failed
  return {
    ...request,
    assets,
    shares: converted ? (assets * PRICE_ONE) / terms.price : 0n,
    refundedAssets: request.cancelled || (request.settled && options.failed) ? assets : 0n,
    reclaimed: request.settled && options.failed,
  }
}

/** A withdrawal of shares, paid out in USDC at its settlement's price. */
function withdrawRequest(random: Random, terms: RequestTerms): WithdrawRequestRow {
  const shares = toUsdc(Math.round(random.between(100, 30_000)))
  const request = lifecycle(random, terms, true)
  return { ...request, shares, assets: request.settled ? (shares * terms.price) / PRICE_ONE : 0n, reclaimed: false }
}

function mmAction(random: Random, settlementId: number, timestamp: bigint): MMActionRow {
  const withdrawing = random.chance(0.4)
  return {
    id: `${settlementId}-${timestamp}`,
    mm: MARKET_MAKER,
    settlementId: BigInt(settlementId),
    receiver: withdrawing ? MARKET_MAKER : null,
    assets: toUsdc(Math.round(random.between(50_000, 2_000_000))),
    type: withdrawing ? 'WITHDRAW' : 'DEPOSIT',
    timestamp,
    txHash: random.hex(32),
  }
}

/** The settlements, with supplies worked back from the vault's final shares. */
function settlementRows(
  random: Random,
  settled: number,
  timeOf: (settlementId: number) => bigint,
  prices: readonly bigint[],
  finalShares: bigint,
  deposits: readonly DepositRequestRow[],
  withdraws: readonly WithdrawRequestRow[],
): SettlementRow[] {
  const rows: SettlementRow[] = []
  let openPnl = 0n
  let accPnl = 0n
  let accRewards = 0n
  for (let settlementId = 1; settlementId <= settled + 1; settlementId++) {
    const isOpen = settlementId > settled
    const ofThis = <R extends { settlementId: bigint }>(requests: readonly R[]) =>
      requests.filter((request) => request.settlementId === BigInt(settlementId))
    const [theseDeposits, theseWithdraws] = [ofThis(deposits), ofThis(withdraws)]
    const live = <R extends { cancelled: boolean }>(requests: readonly R[]) => requests.filter((request) => !request.cancelled)
    const newOpenPnl = isOpen ? openPnl : openPnl + toUsdc(Math.round(random.between(-250_000, 250_000)))
    if (!isOpen) {
      accPnl += toE18(random.between(-0.0005, 0.0005))
      accRewards += toE18(random.between(0, 0.0002))
    }
    rows.push({
      id: String(settlementId),
      settlementId: BigInt(settlementId),
      timestamp: timeOf(settlementId),
      prevOpenPnl: openPnl,
      newOpenPnl,
      settlementOpenPnl: newOpenPnl - openPnl,
      settlementType: null,
      bufferSize: null,
      accPnlPerTokenUsed: accPnl,
      accRewardsPerToken: accRewards,
      shareToAssetsPrice: prices[settlementId - 1]!,
      totalClosedPnl: isOpen ? 0n : toUsdc(Math.round(random.between(-400_000, 400_000))),
      // filled in below, from the end
      totalSupply: 0n,
      totalAssets: 0n,
      deltaShares:
        sum(theseDeposits.map((request) => request.shares)) -
        sum(theseWithdraws.filter((request) => request.settled).map((request) => request.shares)),
      totalAssetsToDeposit: sum(live(theseDeposits).map((request) => request.assets)),
      totalSharesToWithdraw: sum(live(theseWithdraws).map((request) => request.shares)),
      depositsFailed: theseDeposits.some((request) => request.reclaimed),
      withdrawsFailed: false,
      depositsCapped: false,
      settlementAllocationScaleP: 100n,
      depositRequestIds: theseDeposits.map((request) => request.id),
      withdrawRequestIds: theseWithdraws.map((request) => request.id),
    })
    openPnl = newOpenPnl
  }
  let supply = finalShares
  for (let index = rows.length - 1; index >= 0; index--) {
    const row = rows[index]!
    row.totalSupply = supply
    row.totalAssets = (supply * row.shareToAssetsPrice) / PRICE_ONE
    supply -= row.deltaShares
  }
  return rows
}

/** Each wallet's vault position: settled shares, and what it has asked for that is not settled yet. */
function lpShares(
  wallets: readonly string[],
  deposits: readonly DepositRequestRow[],
  withdraws: readonly WithdrawRequestRow[],
  price: bigint,
): LpShareRow[] {
  return wallets.flatMap((wallet) => {
    const [own, ownWithdraws] = [
      deposits.filter((request) => request.owner === wallet),
      withdraws.filter((request) => request.owner === wallet),
    ]
    if (own.length + ownWithdraws.length === 0) return []
    const settledShares =
      sum(own.map((request) => request.shares)) - sum(ownWithdraws.filter((request) => request.settled).map((request) => request.shares))
    const shares = settledShares > 0n ? settledShares : 0n
    const pending = <R extends { settled: boolean; cancelled: boolean }>(requests: readonly R[]) =>
      requests.filter((request) => !request.settled && !request.cancelled)
    return [
      {
        id: wallet,
        user: wallet,
        assets: (shares * price) / PRICE_ONE,
        shares,
        lockedAssets: 0n,
        lockedShares: 0n,
        hasLocked: false,
        pendingDepositAssets: sum(pending(own).map((request) => request.assets)),
        pendingWithdrawShares: sum(pending(ownWithdraws).map((request) => request.shares)),
      },
    ]
  })
}

function sum(values: readonly bigint[]): bigint {
  return values.reduce((total, value) => total + value, 0n)
}
