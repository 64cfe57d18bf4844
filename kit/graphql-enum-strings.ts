// graph-node takes an enum value written as a string as well as a bare name (`orderDirection: "desc"` and
// `orderDirection: desc`; graph-node `graphql/src/values/coercion.rs`, `MaybeCoercible<EnumType>`), and by
// default runs no GraphQL validation that would refuse the string. graphql-js parses only bare names.

import { Kind, type GraphQLEnumType } from 'graphql'

/** Lets `type` parse a string literal too: it passes through as written, for the consumer to check. */
export function acceptEnumStringLiterals(type: GraphQLEnumType): void {
  const parseEnumLiteral = type.parseLiteral.bind(type) as (...args: Parameters<GraphQLEnumType['parseLiteral']>) => unknown
  type.parseLiteral = (node, variables) => (node.kind === Kind.STRING ? node.value : parseEnumLiteral(node, variables))
}
