// Deterministic pseudo-random numbers, so the same seed always yields the same data set.

import { seededRandom } from '../../../kit/seeded-random.ts'

export interface Random {
  /** uniform in [min, max) */
  between(min: number, max: number): number
  /** integer, min and max included */
  int(min: number, max: number): number
  chance(probability: number): boolean
  pick<T>(items: readonly T[]): T
  /** `0x` plus 2·bytes lowercase hex digits */
  hex(bytes: number): string
  /** a new array in random order */
  shuffled<T>(items: readonly T[]): T[]
}

/** A generator seeded from any mix of labels, e.g. (seed, chainId, 'pairs'). */
export function createRandom(...seedParts: ReadonlyArray<string | number>): Random {
  const next = seededRandom(hashLabel(seedParts.join(':')))
  const random: Random = {
    between: (min, max) => min + next() * (max - min),
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    chance: (probability) => next() < probability,
    pick: (items) => {
      if (items.length === 0) throw new Error('pick from an empty list')
      return items[Math.floor(next() * items.length)] as (typeof items)[number]
    },
    hex: (bytes) => {
      let digits = '0x'
      for (let i = 0; i < bytes; i++)
        digits += Math.floor(next() * 256)
          .toString(16)
          .padStart(2, '0')
      return digits
    },
    shuffled: (items) => {
      const copy = [...items]
      for (let i = copy.length - 1; i > 0; i--) {
        const j = Math.floor(next() * (i + 1))
        ;[copy[i], copy[j]] = [copy[j] as (typeof copy)[number], copy[i] as (typeof copy)[number]]
      }
      return copy
    },
  }
  return random
}

/** FNV-1a, 32 bits: turns a label into a generator seed. */
function hashLabel(label: string): number {
  let hash = 0x811c9dc5
  for (let i = 0; i < label.length; i++) {
    hash ^= label.charCodeAt(i)
    hash = Math.imul(hash, 0x01000193)
  }
  return hash >>> 0
}
