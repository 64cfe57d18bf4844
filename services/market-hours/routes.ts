import { ServiceError } from '../../kit/errors.ts'
import { MarketHoursQuery } from '../../schemas/market-hours.ts'
import { EncodedBody } from '../http/encoded-body.ts'
import type { Route } from '../http/http-server.ts'
import { encodedJsonReply, type Reply } from '../http/reply.ts'
import { describeMarketHours } from './market-hours-response.ts'

/**
 * The calendar changes only with a deploy, and an answer for a given `at` never changes: caches may keep
 * any answer for an hour, then revalidate with its ETag.
 */
const CACHE_CONTROL = 'public, max-age=3600'
/** answers kept, by query: every pair without `at` fits many times over; the oldest go first */
const KEPT_ANSWERS = 256

/** GET /v1/market-hours (spec 4.6). */
export function marketHoursRoutes(): Route[] {
  // an answer depends on the query alone, so each is built, hashed and compressed once
  const answers = new Map<string, Reply>()
  return [
    {
      method: 'GET',
      path: '/v1/market-hours',
      budget: 'marketHours',
      headers: [],
      handle({ query }) {
        const parsed = MarketHoursQuery.safeParse(Object.fromEntries(query))
        if (!parsed.success) {
          throw new ServiceError('validation_failed', 'invalid market-hours parameters', { issues: parsed.error.issues })
        }
        const key = `${parsed.data.pair ?? ''}@${parsed.data.at ?? ''}`
        let reply = answers.get(key)
        if (!reply) {
          reply = encodedJsonReply(EncodedBody.of(JSON.stringify(describeMarketHours(parsed.data))), CACHE_CONTROL)
          if (answers.size >= KEPT_ANSWERS) answers.delete(answers.keys().next().value!)
          answers.set(key, reply)
        }
        return reply
      },
    },
  ]
}
