import type { TestEdge } from './edge-harness.ts'
import { rawUpgrade } from './raw-ws.ts'

export interface Refusal {
  status: number
  body: unknown
}

/**
 * How the price stream answers a query of BTC-USD and `query`, as an upgrade and as an event stream (a body only
 * for a refusal: an upgrade that is taken is closed at once).
 */
export async function queryRefusals(edge: TestEdge, query: string): Promise<{ upgrade: Refusal; eventStream: Refusal }> {
  const refused = await rawUpgrade(`${edge.streamUrl}?pairs=BTC-USD&${query}`)
  refused.socket.destroy()
  const events = await fetch(`${edge.baseUrl}/v1/prices/stream?pairs=BTC-USD&${query}`, { headers: { accept: 'text/event-stream' } })
  return {
    upgrade: { status: refused.status, body: refused.status === 101 ? undefined : JSON.parse(refused.rest.toString()) },
    eventStream: { status: events.status, body: await events.json() },
  }
}

/** The 400 body of a price-stream query refused for `issues`. */
export const invalidStreamQuery = (...issues: object[]) => ({ error: 'Bad Request', message: 'invalid query for the price stream', issues })
