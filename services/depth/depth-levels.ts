import { readFileSync } from 'node:fs'
import { z } from 'zod'

// The notional sizes (USD) the depth endpoint prices, in depth-levels.json, checked when this module
// loads so a bad edit stops the start rather than a request.

const DepthLevelsFile = z.strictObject({
  levelsUsd: z
    .array(z.number().positive())
    .min(1)
    .refine((sizes) => sizes.every((size, index) => index === 0 || size > sizes[index - 1]!), 'must be ascending'),
})

export function loadDepthLevels(file: URL): readonly number[] {
  const parsed = DepthLevelsFile.safeParse(JSON.parse(readFileSync(file, 'utf8')))
  if (!parsed.success) throw new Error(`invalid depth levels in ${file.pathname}: ${z.prettifyError(parsed.error)}`)
  return parsed.data.levelsUsd
}

export const DEFAULT_DEPTH_LEVELS = loadDepthLevels(new URL('./depth-levels.json', import.meta.url))
