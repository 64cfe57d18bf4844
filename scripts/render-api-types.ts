import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript'
import { buildOpenApiDocument } from '../schemas/openapi.ts'

const HEADER = '// Generated from the OpenAPI document by `npm run openapi:types`; do not edit.\n\n'

/** The TypeScript types of the REST API (paths and components), as openapi-typescript writes them. */
export async function renderApiTypes(): Promise<string> {
  // a JSON round trip gives openapi-typescript the document exactly as clients download it
  const document = JSON.parse(JSON.stringify(buildOpenApiDocument())) as OpenAPI3
  return HEADER + astToString(await openapiTS(document))
}
