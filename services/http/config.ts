import { z } from 'zod'
import { envHost, envInt } from '../../kit/env-parsing.ts'
import { DEFAULT_IPV6_PREFIX_BITS } from './budget-keys.ts'

/** The HTTP listener's and request pipeline's settings, part of the edge's configuration (the ops listener takes HOST too). */
export const HttpEnv = z.object({
  HOST: envHost('0.0.0.0').describe(
    'the address the edge and the ops listener listen on: an IP address (0.0.0.0 and :: for every interface) or localhost',
  ),
  BUDGET_IPV6_PREFIX: envInt(DEFAULT_IPV6_PREFIX_BITS, { min: 32, max: 128 }).describe(
    'IPv6 clients share per-IP budgets and connection ceilings by this prefix length (IPv4 clients are keyed by address)',
  ),
})
