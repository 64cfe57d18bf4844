import { busNames } from '../../bus/subjects.ts'
import { buildAsyncApiDocument } from '../../schemas/asyncapi.ts'
import { buildOpenApiDocument } from '../../schemas/openapi.ts'
import { STREAM_LIMITS } from '../http/budgets.ts'
import type { Route } from '../http/http-server.ts'
import { refuseQuery } from '../http/refuse-query.ts'
import { jsonBytesReply } from '../http/reply.ts'

/** The AsyncAPI document of the stream and the bus, with the subject names the bus really uses (no namespace). */
export const asyncApiDocument = () => {
  const names = busNames()
  return buildAsyncApiDocument(
    {
      tickSubject: names.tickSubject('{pair}'),
      numberedTickSubject: names.numberedTickSubject('{pair}'),
      latestPricesBucket: names.latestPricesBucket,
    },
    STREAM_LIMITS,
  )
}

/** GET /v1/openapi.json and GET /v1/asyncapi.json, each built once from the zod schemas when first asked for. */
export function apiDocumentRoutes(): Route[] {
  const route = (path: string, build: () => unknown): Route => {
    let document: Buffer | undefined
    return {
      method: 'GET',
      path,
      handle: ({ query }) => {
        refuseQuery(query)
        return jsonBytesReply(200, (document ??= Buffer.from(JSON.stringify(build()))))
      },
    }
  }
  return [route('/v1/openapi.json', buildOpenApiDocument), route('/v1/asyncapi.json', asyncApiDocument)]
}
