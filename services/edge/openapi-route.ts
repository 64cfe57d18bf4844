import { buildOpenApiDocument } from '../../schemas/openapi.ts'
import type { Route } from '../http/http-server.ts'
import { jsonBytesReply } from '../http/reply.ts'

/** GET /v1/openapi.json: the OpenAPI 3.1 document, built once from the zod schemas. */
export function openApiRoutes(): Route[] {
  let document: Buffer | undefined
  return [
    {
      method: 'GET',
      path: '/v1/openapi.json',
      handle: () => jsonBytesReply(200, (document ??= Buffer.from(JSON.stringify(buildOpenApiDocument())))),
    },
  ]
}
