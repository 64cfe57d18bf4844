// The body of a GraphQL-over-HTTP POST, read as graph-node reads it (server/http/src/request.rs):
// a JSON object with a string `query` and, optionally, an object (or null) `variables`.

/** A body graph-node would refuse before looking at the query: it answers 400 `{ "error": message }`. */
export class MalformedRequest extends Error {
  override readonly name = 'MalformedRequest'
}

export interface DoorRequest {
  query: string
  variables: Record<string, unknown> | undefined
  operationName: string | undefined
}

export function readDoorRequest(body: Buffer): DoorRequest {
  let json: unknown
  try {
    json = JSON.parse(body.toString('utf8'))
  } catch (error) {
    throw new MalformedRequest((error as Error).message)
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json)) throw new MalformedRequest('Request data is not an object')
  const { query, variables, operationName } = json as Record<string, unknown>
  if (query === undefined) throw new MalformedRequest('The "query" field is missing in request data')
  if (typeof query !== 'string') throw new MalformedRequest('The "query" field is not a string')
  if (variables !== undefined && variables !== null && (typeof variables !== 'object' || Array.isArray(variables))) {
    throw new MalformedRequest('Invalid query variables provided')
  }
  return {
    query,
    variables: (variables ?? undefined) as Record<string, unknown> | undefined,
    operationName: typeof operationName === 'string' ? operationName : undefined,
  }
}
