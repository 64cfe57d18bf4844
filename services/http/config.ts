import { z } from 'zod'
import { envInt } from '../../kit/env-parsing.ts'
import { DEFAULT_IPV6_PREFIX_BITS } from './budget-keys.ts'

/** The request pipeline's settings, part of the edge's configuration. */
export const HttpEnv = z.object({
  BUDGET_IPV6_PREFIX: envInt(DEFAULT_IPV6_PREFIX_BITS, { min: 32, max: 128 }).describe(
    'IPv6 clients share per-IP budgets and connection ceilings by this prefix length (IPv4 clients are keyed by address)',
  ),
})
