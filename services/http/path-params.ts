import { ServiceError } from '../../kit/errors.ts'

/** The names of a uWS pattern's parameters, in order: ['pair'] for '/v1/depth/:pair/quote'. */
export function paramNames(pattern: string): string[] {
  return pattern
    .split('/')
    .filter((segment) => segment.startsWith(':'))
    .map((segment) => segment.slice(1))
}

/**
 * Percent-decodes raw path parameters. A parameter that is not a valid escape of UTF-8 (`%ZZ`, a lone `%`,
 * `%E0%A4`, the overlong `%C0%AF`, `%FF`) is a 400 carrying an issue per parameter, never a thrown URIError.
 */
export function decodePathParams(names: string[], raw: string[]): Record<string, string> {
  const params: Record<string, string> = {}
  const issues: unknown[] = []
  names.forEach((name, index) => {
    const value = raw[index] ?? ''
    try {
      params[name] = decodeURIComponent(value)
    } catch {
      issues.push({
        code: 'invalid_format',
        format: 'percent-encoded UTF-8',
        path: [name],
        message: `not a valid percent-encoded UTF-8 string`,
      })
    }
  })
  if (issues.length > 0) throw new ServiceError('validation_failed', 'invalid path parameter', { issues })
  return params
}
