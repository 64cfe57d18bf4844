// Where and how requests to Hermes go: an endpoint joined to the configured base URL, keeping the base's
// path prefix and query (a provider's path, an ACCESS_TOKEN parameter), and the API key as a Bearer header.

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

/** Text fit for a log line: at most `maxChars`, with the key and the base URL's query values blanked out. */
export function loggable(text: string, secrets: readonly string[], maxChars = 200): string {
  let safe = text
  for (const secret of secrets) if (secret !== '') safe = safe.replaceAll(secret, '[redacted]')
  return safe.slice(0, maxChars)
}

/** Shorter query values (flags, small numbers) are no credentials, and blanking them would garble log text. */
const MIN_SECRET_CHARS = 8

/** Everything secret a Hermes request carries: the key and the credential-length values of the base URL's query. */
export function requestSecrets(baseUrl: string, apiKey: Secret<string> | undefined): string[] {
  const values = [...new URL(baseUrl).searchParams.values()].filter((value) => value.length >= MIN_SECRET_CHARS)
  return apiKey ? [apiKey.reveal(), ...values] : values
}
