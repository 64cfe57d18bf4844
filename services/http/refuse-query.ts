import { ServiceError } from '../../kit/errors.ts'
import { NoQuery } from '../../schemas/price.ts'

/** For endpoints that take no parameters: anything in the query string is a 400 with zod's issues. */
export function refuseQuery(query: URLSearchParams): void {
  if (query.size === 0) return // the common case, on hot routes: no object to build
  const parsed = NoQuery.safeParse(Object.fromEntries(query))
  if (!parsed.success) throw new ServiceError('validation_failed', 'this endpoint takes no parameters', { issues: parsed.error.issues })
}
