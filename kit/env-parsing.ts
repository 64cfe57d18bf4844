import { isIP } from 'node:net'
import { z } from 'zod'
import { ServiceError } from './errors.ts'
import { maskUrl } from './redaction.ts'

export type Env = Record<string, string | undefined>

/**
 * Parses a role's environment once at start. A wrong value stops the start with one message naming
 * every offending variable, its value (credentials masked) and what is allowed.
 */
export function parseEnv<Schema extends z.ZodType>(schema: Schema, env: Env, role: string): z.infer<Schema> {
  const result = schema.safeParse(env)
  if (result.success) return result.data
  const problems = result.error.issues.map((issue) => describeIssue(issue.path.join('.'), env, issue.message))
  throw new ServiceError('config_invalid', `invalid configuration for ${role}: ${problems.join('; ')}`)
}

/** Variables whose whole value is a credential (RELAYER_PRIVATE_KEY, HERMES_API_KEY): named, never quoted. */
const SECRET_VARIABLE = /(?:^|_)(?:KEY|SECRET|PASSWORD|TOKEN)$/

function describeIssue(name: string, env: Env, message: string): string {
  if (!name) return message
  const value = env[name]
  if (value === undefined) return `${name} is not set: ${message}`
  return SECRET_VARIABLE.test(name) ? `${name}: ${message}` : `${name}=${JSON.stringify(maskUrl(value))}: ${message}`
}

/** Environment helpers: env values are strings, so numbers and booleans are parsed from text. */
export const envInt = (fallback: number, range: { min?: number; max?: number } = {}) => {
  const { min = -Number.MAX_SAFE_INTEGER, max = Number.MAX_SAFE_INTEGER } = range
  const allowed =
    range.max !== undefined
      ? `a whole number from ${min} to ${max}`
      : range.min !== undefined
        ? `a whole number, at least ${min}`
        : 'a whole number'
  return z
    .string()
    .refine((text) => /^-?\d{1,16}$/.test(text) && Number(text) >= min && Number(text) <= max, `must be ${allowed}`)
    .transform(Number)
    .optional()
    .transform((value) => value ?? fallback)
}

/** A TCP port; 0 picks a free one. */
export const envPort = (fallback: number) => envInt(fallback, { min: 0, max: 65_535 })

/** An address to listen on: an IP address (0.0.0.0 and :: for every interface) or localhost. */
export const envHost = (fallback: string) =>
  z
    .string()
    .refine((host) => isIP(host) !== 0 || host === 'localhost', 'must be an IP address (e.g. 0.0.0.0, ::, 127.0.0.1) or localhost')
    .default(fallback)

export const envNumber = (fallback: number) =>
  z
    .string()
    .refine((text) => text.trim() !== '' && Number.isFinite(Number(text)), 'must be a number')
    .transform(Number)
    .optional()
    .transform((value) => value ?? fallback)

export const envBool = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0'])
    .transform((text) => text === 'true' || text === '1')
    .optional()
    .transform((value) => value ?? fallback)

/** A comma-separated list; empty entries are dropped. */
export const envList = (fallback: string[] = []) =>
  z
    .string()
    .meta({ check: 'a comma-separated list' }) // read by the configuration table's generator
    .transform((text) =>
      text
        .split(',')
        .map((item) => item.trim())
        .filter((item) => item !== ''),
    )
    .optional()
    .transform((value) => value ?? fallback)

export const envOptionalUrl = z.url().optional()
