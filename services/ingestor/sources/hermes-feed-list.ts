// The feed ids Hermes knows, from its feed list (GET <base>/v2/price_feeds: [{ id, attributes }, ...]).

import { normalizeFeedId } from '../feed-ids.ts'
import { hermesRefusal } from './hermes-refusal.ts'

/** Canonical ids (0x, lowercase) of every listed feed; throws a HermesRefusal for a non-2xx answer. */
export async function listedFeedIds(
  url: URL,
  init: { headers: Record<string, string>; signal: AbortSignal },
  loggableBody: (text: string) => string,
): Promise<Set<string>> {
  const response = await fetch(url, init)
  if (!response.ok) {
    const body = await response.text().catch(() => '')
    throw hermesRefusal('price_feeds', response.status, response.headers, loggableBody(body))
  }
  const body: unknown = await response.json()
  if (!Array.isArray(body)) throw new Error('the feed list is not a JSON array')
  const ids = new Set<string>()
  for (const entry of body as unknown[]) {
    const id = typeof entry === 'object' && entry !== null ? (entry as { id?: unknown }).id : undefined
    if (typeof id === 'string') ids.add(normalizeFeedId(id))
  }
  return ids
}
