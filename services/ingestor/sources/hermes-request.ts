// Where and how requests to Hermes go: an endpoint joined to the configured base URL, keeping the base's
// path prefix and query (a provider's path, an ACCESS_TOKEN parameter), and the API key as a Bearer header.

import { createRedactor, secretsOfUrl } from '../../../kit/redaction.ts'
import type { Secret } from '../../../kit/secret.ts'

/** base + path, e.g. https://host/prefix?ACCESS_TOKEN=x + v2/price_feeds → https://host/prefix/v2/price_feeds?ACCESS_TOKEN=x */
export function hermesUrl(baseUrl: string, path: string): URL {
  const url = new URL(baseUrl)
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/${path}`
  return url
}

export function hermesHeaders(apiKey: Secret<string> | undefined, accept: string): Record<string, string> {
  return apiKey ? { accept, authorization: `Bearer ${apiKey.reveal()}` } : { accept }
}

/** Longer bodies are cut: a refusal's reason is in its first words. */
const MAX_LOGGED_CHARS = 200

/** Makes text fit for a log line: the key and the base URL's secret parts (query values, key-like path segments) masked, cut short. */
export function logSafe(baseUrl: string, apiKey: Secret<string> | undefined): (text: string) => string {
  const redactor = createRedactor([...(apiKey ? [apiKey.reveal()] : []), ...secretsOfUrl(baseUrl)])
  return (text) => redactor.mask(text).slice(0, MAX_LOGGED_CHARS)
}
