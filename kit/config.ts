import { z } from 'zod'
import { ServiceError } from './errors.ts'

export type Env = Record<string, string | undefined>

/**
 * Parses a role's environment once at start. A wrong value stops the start with one message naming
 * every offending variable.
 */
export function parseEnv<Schema extends z.ZodType>(schema: Schema, env: Env, role: string): z.infer<Schema> {
  const result = schema.safeParse(env)
  if (result.success) return result.data
  const problems = result.error.issues.map((issue) => `${issue.path.join('.') || '(env)'}: ${issue.message}`)
  throw new ServiceError('config_invalid', `invalid configuration for ${role}: ${problems.join('; ')}`)
}

/** Environment helpers: env values are strings, so numbers and booleans are parsed from text. */
export const envInt = (fallback: number) =>
  z
    .string()
    .regex(/^-?\d+$/, 'must be a whole number')
    .transform(Number)
    .optional()
    .transform((value) => value ?? fallback)

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
    .transform((text) =>
      text
        .split(',')
        .map((item) => item.trim())
        .filter((item) => item !== ''),
    )
    .optional()
    .transform((value) => value ?? fallback)

export const envOptionalUrl = z.url().optional()
