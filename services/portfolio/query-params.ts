import type { z } from 'zod'
import { ServiceError } from '../../kit/errors.ts'

/** A route's query string through its schema; a refusal is a 400 carrying zod's raw issues (spec 7). */
export function parseQuery<Schema extends z.ZodType>(schema: Schema, query: URLSearchParams): z.infer<Schema> {
  const parsed = schema.safeParse(Object.fromEntries(query))
  if (!parsed.success) throw new ServiceError('validation_failed', 'invalid query parameters', { issues: parsed.error.issues })
  return parsed.data
}
