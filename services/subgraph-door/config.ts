import { z } from 'zod'
import { envInt, parseEnv, type Env } from '../../kit/env-parsing.ts'
import { SUBGRAPH_DOOR_DEFAULTS as DEFAULTS } from '../../schemas/subgraph-door.ts'

// The door's limits (docs/subgraph-door.md gives each one's reason). graph-node's own caps on `first`
// (1000) and `skip` (5000 on hosted nodes) stay the upstream's: it refuses those in its own words.
export const SubgraphDoorEnv = z.object({
  SUBGRAPH_DOOR_MAX_BODY_BYTES: envInt(DEFAULTS.maxBodyBytes, { min: 1024, max: 1024 * 1024 }).describe(
    "a request body above this is refused before it is parsed (the edge's BODY_LIMIT_BYTES still applies first)",
  ),
  SUBGRAPH_DOOR_MAX_QUERY_LENGTH: envInt(DEFAULTS.maxQueryLength, { min: 100, max: 1_000_000 }).describe(
    "characters of the `query` text; the venue's own door documents 40,000",
  ),
  SUBGRAPH_DOOR_MAX_DEPTH: envInt(DEFAULTS.maxDepth, { min: 2, max: 255 }).describe(
    'selection depth, fragments flattened, introspection not counted',
  ),
  SUBGRAPH_DOOR_MAX_ALIASES: envInt(DEFAULTS.maxAliases, { min: 0, max: 1000 }).describe('aliased fields in one query'),
  SUBGRAPH_DOOR_MAX_ROWS: envInt(DEFAULTS.maxRows, { min: 1000, max: 10_000_000 }).describe(
    "rows a query may ask for, counted as graph-node counts them (`first` of each list times its parents')",
  ),
  SUBGRAPH_DOOR_TIMEOUT_MS: envInt(DEFAULTS.timeoutMs, { min: 100, max: 120_000 }).describe(
    'an upstream answer not complete by then becomes a 504',
  ),
  SUBGRAPH_DOOR_CACHE_MS: envInt(DEFAULTS.cacheMs, { min: 0, max: 600_000 }).describe(
    'identical requests within this time share one answer; 0 only joins requests in flight',
  ),
  SUBGRAPH_DOOR_CACHE_ENTRIES: envInt(DEFAULTS.cacheEntries, { min: 1, max: 100_000 }).describe(
    'answers kept at most; the oldest go first',
  ),
})

export interface QueryLimits {
  maxQueryLength: number
  maxDepth: number
  maxAliases: number
  maxRows: number
}

export interface SubgraphDoorConfig {
  maxBodyBytes: number
  limits: QueryLimits
  timeoutMs: number
  cacheMs: number
  cacheEntries: number
}

export function subgraphDoorConfig(env: Env): SubgraphDoorConfig {
  const parsed = parseEnv(SubgraphDoorEnv, env, 'subgraph door')
  return {
    maxBodyBytes: parsed.SUBGRAPH_DOOR_MAX_BODY_BYTES,
    limits: {
      maxQueryLength: parsed.SUBGRAPH_DOOR_MAX_QUERY_LENGTH,
      maxDepth: parsed.SUBGRAPH_DOOR_MAX_DEPTH,
      maxAliases: parsed.SUBGRAPH_DOOR_MAX_ALIASES,
      maxRows: parsed.SUBGRAPH_DOOR_MAX_ROWS,
    },
    timeoutMs: parsed.SUBGRAPH_DOOR_TIMEOUT_MS,
    cacheMs: parsed.SUBGRAPH_DOOR_CACHE_MS,
    cacheEntries: parsed.SUBGRAPH_DOOR_CACHE_ENTRIES,
  }
}
