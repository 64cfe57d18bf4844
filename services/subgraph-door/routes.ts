import type { GraphQLSchema } from 'graphql'
import type { Metrics } from '../../kit/metrics.ts'
import { SUPPORTED_CHAIN_IDS, type ChainId } from '../../schemas/common.ts'
import { EncodedBody } from '../http/encoded-body.ts'
import { graphqlErrorBody } from '../http/error-bodies.ts'
import type { Route } from '../http/http-server.ts'
import { jsonReply, type Reply } from '../http/reply.ts'
import type { RequestContext } from '../http/request-context.ts'
import { createCoalescingCache } from '../indexer/coalescing-cache.ts'
import type { IndexerUrls } from '../indexer/config.ts'
import type { SubgraphDoorConfig } from './config.ts'
import { MalformedRequest, readDoorRequest } from './door-request.ts'
import type * as QueryCost from './query-cost.ts'
import type * as Upstream from './upstream.ts'

/** how long a chain's schema is reused for costing queries before it is read again */
const SCHEMA_TTL_MS = 10 * 60_000

/** The parts that load graphql-js and its rules, on the door's first query: the edge's routes load without them. */
let graphqlParts: Promise<[typeof QueryCost, typeof Upstream]> | undefined
const loadGraphqlParts = () => (graphqlParts ??= Promise.all([import('./query-cost.ts'), import('./upstream.ts')]))

/**
 * POST /v1/subgraph/gn (Arbitrum One, where the venue's own door is) and /v1/subgraph/{chainId}/gn:
 * a GraphQL door to each chain's subgraph. A query within the limits is forwarded as it came and the
 * subgraph's answer passed on unchanged; identical requests share one upstream request and its answer
 * for a short time. POST /graph is the same Arbitrum One door at the path where the venue's metadata
 * backend answers GraphQL, for clients configured with that backend's address.
 */
export function subgraphDoorRoutes(deps: {
  urls: IndexerUrls | Promise<IndexerUrls>
  config: SubgraphDoorConfig
  metrics: Metrics
}): Route[] {
  const { config, metrics } = deps
  const schemas = createCoalescingCache<GraphQLSchema>({ ttlMs: SCHEMA_TTL_MS, maxEntries: SUPPORTED_CHAIN_IDS.length })
  const answers = createCoalescingCache<Reply>({ ttlMs: config.cacheMs, maxEntries: config.cacheEntries })

  const answer = async (chainId: ChainId, context: RequestContext): Promise<Reply> => {
    const chain = String(chainId)
    const refuse = (reason: string, status: number, body: object): Reply => {
      metrics.subgraphDoorRequests.labels(chain, 'refused').inc()
      metrics.subgraphDoorRefusals.labels(chain, reason).inc()
      context.log.info({ chain: chainId, reason }, 'subgraph query refused')
      return jsonReply(status, body)
    }
    if (context.body.length > config.maxBodyBytes) {
      return refuse('body_size', 413, graphqlErrorBody(`request body is larger than ${config.maxBodyBytes} bytes`))
    }
    const [{ checkQueryCost, parseQuery, QueryRefused }, { forwardToSubgraph, readSubgraphSchema, UpstreamFailure }] =
      await loadGraphqlParts()
    try {
      let forwarded = false
      // keyed by the exact bytes: a body answered within the cache's time is answered again without being read,
      // parsed or costed; a refusal is not kept, so it is decided anew each time
      const key = `${chain}\n${context.body.toString('latin1')}`
      const reply = await answers.get(key, async () => {
        const request = readDoorRequest(context.body)
        const document = parseQuery(request.query, config.limits)
        const url = (await deps.urls)[chainId]
        const schema = await schemas.get(chain, () => readSubgraphSchema(url, config.timeoutMs))
        checkQueryCost(schema, document, request, config.limits)
        forwarded = true
        const upstream = await forwardToSubgraph(url, context.body, config.timeoutMs)
        const encoded = EncodedBody.of(upstream.body)
        return { status: upstream.status, body: encoded.identity, contentType: upstream.contentType, encoded }
      })
      metrics.subgraphDoorRequests.labels(chain, forwarded ? 'forwarded' : 'cached').inc()
      return reply
    } catch (error) {
      // graph-node answers a body it cannot read with 400 `{ "error": ... }`, a query it refuses with 200 `{ "errors": [...] }`
      if (error instanceof MalformedRequest) return refuse('malformed', 400, { error: error.message })
      if (error instanceof QueryRefused) return refuse(error.reason, 200, graphqlErrorBody(error.message))
      if (error instanceof UpstreamFailure) {
        metrics.subgraphDoorRequests.labels(chain, 'failed').inc()
        metrics.subgraphDoorUpstreamFailures.labels(chain, error.kind).inc()
        context.log.warn({ chain: chainId, kind: error.kind, err: error.cause }, 'subgraph did not answer the door')
        const status = error.kind === 'timeout' ? 504 : 502
        return jsonReply(status, graphqlErrorBody(`the subgraph of chain ${chainId} ${error.message}`))
      }
      throw error
    }
  }

  const mainnet = (context: RequestContext) => answer(42161, context)
  return [
    { method: 'POST', path: '/v1/subgraph/gn', budget: 'subgraph', errorShape: 'graphql', handle: mainnet },
    { method: 'POST', path: '/graph', budget: 'subgraph', errorShape: 'graphql', handle: mainnet },
    {
      method: 'POST',
      path: '/v1/subgraph/:chainId/gn',
      budget: 'subgraph',
      errorShape: 'graphql',
      handle(context) {
        const chainId = Number(context.params.chainId)
        if (!SUPPORTED_CHAIN_IDS.includes(chainId as ChainId) || String(chainId) !== context.params.chainId) {
          return jsonReply(
            404,
            graphqlErrorBody(`no subgraph for chain ${context.params.chainId}: use ${SUPPORTED_CHAIN_IDS.join(' or ')}`),
          )
        }
        return answer(chainId as ChainId, context)
      },
    },
  ]
}
