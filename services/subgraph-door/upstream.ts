// The door's exchanges with a chain's subgraph: forwarding a client's body as it came, and reading the
// subgraph's schema (by introspection) so queries can be costed against it.

import { buildClientSchema, getIntrospectionQuery, isEnumType, type GraphQLSchema, type IntrospectionQuery } from 'graphql'
import { acceptEnumStringLiterals } from '../../kit/graphql-enum-strings.ts'
import { ExchangeFailure } from '../../kit/errors.ts'

/** A subgraph answer the door passes on unchanged: any status below 500 (graph-node's 200s and 400s). */
export interface UpstreamAnswer {
  status: number
  contentType: string
  body: Buffer
}

export type UpstreamFailureKind = 'timeout' | 'network_error' | 'http_error' | 'invalid_schema'

/** The subgraph did not answer the door, or answered its introspection with something that is not a schema. */
export class UpstreamFailure extends ExchangeFailure<UpstreamFailureKind> {
  override readonly name = 'UpstreamFailure'
}

/** POSTs `body` and reads the whole answer within `timeoutMs`; a 5xx or no answer is an `UpstreamFailure`. */
export async function forwardToSubgraph(url: string, body: Uint8Array | string, timeoutMs: number): Promise<UpstreamAnswer> {
  const signal = AbortSignal.timeout(timeoutMs)
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: typeof body === 'string' ? body : new Uint8Array(body),
      signal,
    })
    const answer = Buffer.from(await response.arrayBuffer())
    if (response.status >= 500) throw new UpstreamFailure('http_error', `answered HTTP ${response.status}`)
    return { status: response.status, contentType: response.headers.get('content-type') ?? 'application/json', body: answer }
  } catch (error) {
    if (error instanceof UpstreamFailure) throw error
    if (signal.aborted) throw new UpstreamFailure('timeout', `did not answer within ${timeoutMs} ms`, { cause: error })
    throw new UpstreamFailure('network_error', 'cannot be reached (connection refused or dropped)', { cause: error })
  }
}

const INTROSPECTION_BODY = JSON.stringify({ query: getIntrospectionQuery() })

/** The subgraph's schema, from the standard introspection query. */
export async function readSubgraphSchema(url: string, timeoutMs: number): Promise<GraphQLSchema> {
  const answer = await forwardToSubgraph(url, INTROSPECTION_BODY, timeoutMs)
  try {
    const { data } = JSON.parse(answer.body.toString('utf8')) as { data?: IntrospectionQuery }
    if (!data) throw new Error('no data in the introspection answer')
    const schema = buildClientSchema(data)
    // costing reads every argument; an enum written as a string, which graph-node accepts, must not fail it
    for (const type of Object.values(schema.getTypeMap())) if (isEnumType(type)) acceptEnumStringLiterals(type)
    return schema
  } catch (error) {
    throw new UpstreamFailure('invalid_schema', 'answered the introspection query with something that is not a schema', { cause: error })
  }
}
