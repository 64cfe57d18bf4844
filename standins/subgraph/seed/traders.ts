// The wallets that have rows in the seed data. Addresses are fixed (independent of the seed) so that
// tests and demos can name them; the seed only changes what each wallet did.

import type { ChainId } from '../rows.ts'

/**
 * The demo wallet: the second default account of local development chains (anvil, hardhat), in its
 * checksummed spelling. It has positions, resting orders and history on both chains. The indexed
 * source stores it lowercase, like every address.
 */
export const DEMO_TRADER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'

/** A wallet with more than 6000 resting orders and executed orders on 42161, beyond the `skip` ceiling. */
export const WHALE_TRADER = '0xb0e81a5c392f3d866ebc0bb4e77a23eb62247026'

const OTHER_TRADERS = [
  '0x7dfb89143d0a8c41f9d95768656f20adeb2993b4',
  '0x61649befd50245372b137906aa3e320c63f51867',
  '0xbe61a97342d76174d2677e6c789094ce326320da',
  '0x1e8c1a430ea813ada1fdcb6a7656b88b4dfdd84c',
  '0xc060062b366c151e5d0dbc8dd190a93fd013e01c',
  '0xd704436bef4e23ae184770e62cae992ff1909c71',
] as const

/** How much history one wallet gets. */
export interface TraderProfile {
  /** lowercase */
  address: string
  closedPositions: number
  openPositions: number
  /** resting limit/stop orders */
  activeLimits: number
  cancelledLimits: number
  /** share of positions that opened from a limit/stop order (which is then inactive) */
  limitFillShare: number
  pendingOrders: number
  cancelledOrders: number
}

type Volume = Omit<TraderProfile, 'address'>

const DEMO_VOLUME: Volume = {
  closedPositions: 40,
  openPositions: 8,
  activeLimits: 12,
  cancelledLimits: 6,
  limitFillShare: 0.2,
  pendingOrders: 2,
  cancelledOrders: 5,
}

const WHALE_VOLUME: Volume = {
  closedPositions: 3200,
  openPositions: 40,
  activeLimits: 6200,
  cancelledLimits: 250,
  limitFillShare: 0.1,
  pendingOrders: 3,
  cancelledOrders: 150,
}

/** Ordinary wallets: enough for "hundreds of orders" across the chain, each a little different. */
function ordinaryVolume(rank: number): Volume {
  return {
    closedPositions: 10 + 12 * rank,
    openPositions: 1 + (rank % 4),
    activeLimits: rank % 3 === 0 ? 0 : 2 + rank,
    cancelledLimits: rank % 3,
    limitFillShare: 0.25,
    pendingOrders: rank % 2,
    cancelledOrders: 1 + (rank % 3),
  }
}

/** The whale only trades on 42161; the test network has fewer wallets. */
export function traderProfiles(chainId: ChainId): TraderProfile[] {
  const others = chainId === 42161 ? OTHER_TRADERS : OTHER_TRADERS.slice(0, 3)
  return [
    { address: DEMO_TRADER.toLowerCase(), ...DEMO_VOLUME },
    ...(chainId === 42161 ? [{ address: WHALE_TRADER, ...WHALE_VOLUME }] : []),
    ...others.map((address, rank) => ({ address, ...ordinaryVolume(rank) })),
  ]
}
