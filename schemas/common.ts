import { z } from 'zod'

export const SUPPORTED_CHAIN_IDS = [42161, 421614] as const

export const Address = z.string().regex(/^0x[a-fA-F0-9]{40}$/, 'must be 0x followed by 40 hex characters')

const MAX_UINT256 = 2n ** 256n - 1n

/** A non-negative integer written as a decimal string (`\d` is ASCII-only in JavaScript); 256-bit values never travel as JSON numbers. */
export const DecimalString = z.string().regex(/^\d+$/, 'must be a decimal string of digits')

/** 2^256-1 has 78 digits: a longer string is refused before any BigInt is made of it. */
export const Uint256String = z
  .string()
  .regex(/^\d+$/, { message: 'must be a decimal string of digits', abort: true })
  .refine((value) => value.length <= 78 && BigInt(value) <= MAX_UINT256, 'must fit in 256 bits')

export const ChainId = z.union(
  SUPPORTED_CHAIN_IDS.map((id) => z.literal(id)),
  {
    error: `must be one of ${SUPPORTED_CHAIN_IDS.join(', ')}`,
  },
)
export type ChainId = z.infer<typeof ChainId>

/** Unix seconds as a decimal string, as the indexed source and the limits endpoint spell them. */
export const UnixSecondsString = DecimalString

/**
 * Metadata for a query parameter: the value arrives as a string and is parsed into a number or an enum
 * member, and the documents state what it is parsed into rather than "a string of digits".
 */
export const documentedAs = (schema: Record<string, unknown>) => ({
  override: ({ jsonSchema }: { jsonSchema: Record<string, unknown> }) => {
    for (const key of Object.keys(jsonSchema)) delete jsonSchema[key]
    Object.assign(jsonSchema, schema)
  },
})
