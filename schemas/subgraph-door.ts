// POST /v1/subgraph/gn and /v1/subgraph/{chainId}/gn: the GraphQL door to each chain's subgraph. Bodies
// and answers are graph-node's; the door's default limits live here so its configuration
// (services/subgraph-door/config.ts) and the API document read the same figures.
import { z } from 'zod'

/** The door's limits when no SUBGRAPH_DOOR_* variable overrides them (reasons: docs/subgraph-door.md). */
export const SUBGRAPH_DOOR_DEFAULTS = {
  maxBodyBytes: 48 * 1024,
  maxQueryLength: 40_000,
  maxDepth: 10,
  maxAliases: 30,
  maxRows: 20_000,
  timeoutMs: 5000,
  cacheMs: 2000,
  cacheEntries: 256,
} as const

/** A GraphQL request as graph-node reads it (`server/http/src/request.rs`). */
export const GraphqlRequest = z.object({
  query: z.string().meta({ description: 'The GraphQL document, forwarded as sent' }),
  variables: z.record(z.string(), z.unknown()).nullable().optional().meta({ description: 'Values of its variables' }),
  operationName: z.string().nullable().optional().meta({ description: 'The operation to run when the document holds several' }),
})

const GraphqlError = z.looseObject({ message: z.string() })

/** graph-node's answer, passed on unchanged; a refusal of the door's own limits has `errors` only. */
export const GraphqlAnswer = z.looseObject({
  data: z.record(z.string(), z.unknown()).nullable().optional(),
  errors: z.array(GraphqlError).optional(),
})

/** What graph-node answers a body it cannot read (HTTP 400). */
export const GraphNodeBadRequest = z.object({ error: z.string() })

/** The door's own refusals (not-found chain, 413, 429, 502, 504): graph-node's error shape. */
export const GraphqlErrors = z.object({ errors: z.array(z.object({ message: z.string() })) })
