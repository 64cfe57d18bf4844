import createClient, { type ClientOptions } from 'openapi-fetch'
import type { paths } from './api-types.ts'

/**
 * The typed REST client: every path, parameter and body of the OpenAPI document, through openapi-fetch.
 * `baseUrl` is the deployment, e.g. https://api.example.com.
 */
export const createRestClient = (options: ClientOptions & { baseUrl: string }) => createClient<paths>(options)

export type RestClient = ReturnType<typeof createRestClient>
