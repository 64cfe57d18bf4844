// The Graph's scalars: BigInt travels as a decimal string, Bytes as lowercase 0x-hex. Parsing a Bytes
// input lowercases it, which is why mixed-case addresses match the stored (lowercase) ones.

import { GraphQLError, GraphQLScalarType, Kind, type ValueNode } from 'graphql'

const DECIMAL_INTEGER = /^-?\d+$/
const HEX_BYTES = /^0x(?:[0-9a-fA-F]{2})*$/

export const BigIntScalar = new GraphQLScalarType<bigint, string>({
  name: 'BigInt',
  serialize: (value) => {
    if (typeof value !== 'bigint') throw new GraphQLError(`BigInt cannot represent ${String(value)}`)
    return value.toString()
  },
  parseValue: (value) => parseBigInt(value),
  parseLiteral: (node) => parseBigInt(literalText(node, Kind.STRING, Kind.INT)),
})

export const BytesScalar = new GraphQLScalarType<string, string>({
  name: 'Bytes',
  serialize: (value) => {
    if (typeof value !== 'string') throw new GraphQLError(`Bytes cannot represent ${String(value)}`)
    return value
  },
  parseValue: (value) => parseBytes(value),
  parseLiteral: (node) => parseBytes(literalText(node, Kind.STRING)),
})

function parseBigInt(value: unknown): bigint {
  const text = typeof value === 'number' && Number.isInteger(value) ? String(value) : value
  if (typeof text !== 'string' || !DECIMAL_INTEGER.test(text)) throw new GraphQLError(`Invalid BigInt value: ${String(value)}`)
  return BigInt(text)
}

function parseBytes(value: unknown): string {
  if (typeof value !== 'string' || !HEX_BYTES.test(value)) throw new GraphQLError(`Invalid Bytes value: ${String(value)}`)
  return value.toLowerCase()
}

function literalText(node: ValueNode, ...kinds: Kind[]): string | undefined {
  return kinds.includes(node.kind) && 'value' in node && typeof node.value === 'string' ? node.value : undefined
}
