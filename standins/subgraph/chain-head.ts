// What `_meta` reports as the last indexed block. The stand-in is caught up (its head is "now") unless
// a test asks it to lag; block numbers follow Arbitrum's pace of about four blocks a second.

import { createHash } from 'node:crypto'
import type { ChainId } from './rows.ts'

export interface ChainHead {
  number: number
  hash: string
  timestamp: number
}

const BLOCKS_PER_SECOND = 4
const REFERENCE_BLOCKS: Readonly<Record<ChainId, { number: number; timestamp: number }>> = {
  42161: { number: 300_000_000, timestamp: 1_736_899_200 },
  421614: { number: 115_000_000, timestamp: 1_736_899_200 },
}

/** The chain's block number at a Unix time. */
export function blockNumberAt(chainId: ChainId, timestamp: number): number {
  const reference = REFERENCE_BLOCKS[chainId]
  return reference.number + (timestamp - reference.timestamp) * BLOCKS_PER_SECOND
}

export function chainHeadAt(chainId: ChainId, timestamp: number): ChainHead {
  const number = blockNumberAt(chainId, timestamp)
  return { number, hash: `0x${createHash('sha256').update(`${chainId}:${number}`).digest('hex')}`, timestamp }
}
