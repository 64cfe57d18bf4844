import { ExchangeFailure } from '../../kit/errors.ts'
import { GraphqlEnvelope } from './subgraph-schemas.ts'

// One GraphQL-over-HTTP exchange with the indexed source, and what can go wrong with it.

/** The outcomes of a request other than `ok`; also the `outcome` label of the request metric. */
export type FailureKind = 'timeout' | 'network_error' | 'http_error' | 'graphql_errors' | 'invalid_response'

/** A failed exchange. The message completes "the indexed data source of chain N ..." for clients. */
export class IndexerFailure extends ExchangeFailure<FailureKind> {
  override readonly name = 'IndexerFailure'
}

/**
 * POSTs `document` and resolves with the answer's `data`. The timeout covers the whole exchange, the
 * body included, so a source that stalls mid-answer fails too. GraphQL errors (which The Graph sends
 * with HTTP 200) fail the request: a partial answer is not served.
 */
export async function postGraphql(url: string, document: string, variables: Record<string, unknown>, timeoutMs: number): Promise<unknown> {
  const signal = AbortSignal.timeout(timeoutMs)
  let status: number
  let text: string
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ query: document, variables }),
      signal,
    })
    status = response.status
    text = await response.text()
  } catch (error) {
    if (signal.aborted) throw new IndexerFailure('timeout', `did not answer within ${timeoutMs} ms`, { cause: error })
    throw new IndexerFailure('network_error', 'cannot be reached (connection refused or dropped)', { cause: error })
  }
  if (status < 200 || status > 299) throw new IndexerFailure('http_error', `answered HTTP ${status}`)
  const envelope = GraphqlEnvelope.safeParse(parseJson(text))
  if (!envelope.success) throw new IndexerFailure('invalid_response', 'answered something other than GraphQL', { cause: envelope.error })
  const { data, errors } = envelope.data
  if (errors && errors.length > 0) {
    throw new IndexerFailure('graphql_errors', 'answered with GraphQL errors', { cause: errors.map((error) => error.message) })
  }
  if (data === undefined || data === null) throw new IndexerFailure('invalid_response', 'answered without data')
  return data
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}
