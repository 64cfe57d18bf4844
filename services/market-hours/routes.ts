import { ServiceError } from '../../kit/errors.ts'
import { MarketHoursQuery } from '../../schemas/market-hours.ts'
import type { Route } from '../http/http-server.ts'
import { cacheableJsonReply } from './cacheable-reply.ts'
import { describeMarketHours } from './market-hours-response.ts'

/**
 * The calendar changes only with a deploy, and an answer for a given `at` never changes: caches may keep
 * any answer for an hour, then revalidate with its ETag.
 */
const CACHE_CONTROL = 'public, max-age=3600'

/** GET /v1/market-hours (spec 4.6). */
export function marketHoursRoutes(): Route[] {
  return [
    {
      method: 'GET',
      path: '/v1/market-hours',
      budget: 'marketHours',
      handle({ query, headers }) {
        const parsed = MarketHoursQuery.safeParse(Object.fromEntries(query))
        if (!parsed.success) {
          throw new ServiceError('validation_failed', 'invalid market-hours parameters', { issues: parsed.error.issues })
        }
        const body = JSON.stringify(describeMarketHours(parsed.data))
        return cacheableJsonReply(body, CACHE_CONTROL, headers['if-none-match'])
      },
    },
  ]
}
