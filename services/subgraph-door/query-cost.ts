// What a query may cost before it is forwarded: its length, depth, aliases and the rows it can ask for.
// graphql-js parses it, graphql-armor's rules bound depth and aliases, graphql-query-complexity walks it
// (fragments, variables, @skip/@include) with graph-node's own row count as the estimator.

import { maxAliasesRule } from '@escape.tech/graphql-armor-max-aliases'
import { maxDepthRule } from '@escape.tech/graphql-armor-max-depth'
import {
  getNamedType,
  getNullableType,
  GraphQLError,
  GraphQLList,
  isCompositeType,
  parse,
  validate,
  type DocumentNode,
  type GraphQLSchema,
  type ValidationRule,
} from 'graphql'
import { getComplexity, type ComplexityEstimator } from 'graphql-query-complexity'
import type { QueryLimits } from './config.ts'

/** graph-node's `first` when a list field names none, and the most it accepts (graph/src/env/graphql.rs). */
const DEFAULT_FIRST = 100
const MAX_FIRST = 1000
/** a parser bound well above what a query within the length cap needs */
const MAX_TOKENS = 20_000
/** fields the complexity walk visits at most, so nested fragment spreads cannot make it run long */
const MAX_QUERY_NODES = 20_000

export type RefusalReason = 'query_length' | 'syntax' | 'depth' | 'aliases' | 'rows' | 'unanalysable'

/** A query the door does not forward; `message` goes to the client as graph-node words its refusals. */
export class QueryRefused extends Error {
  override readonly name = 'QueryRefused'
  constructor(
    readonly reason: RefusalReason,
    message: string,
  ) {
    super(message)
  }
}

/** Parses the query text, or refuses it for its length or a syntax error (graph-node answers both with 200 and `errors`). */
export function parseQuery(query: string, limits: QueryLimits): DocumentNode {
  if (query.length > limits.maxQueryLength) {
    throw new QueryRefused('query_length', `query is ${query.length} characters long and exceeds the limit of \`${limits.maxQueryLength}\``)
  }
  try {
    return parse(query, { maxTokens: MAX_TOKENS, noLocation: true })
  } catch (error) {
    throw new QueryRefused('syntax', (error as GraphQLError).message)
  }
}

/**
 * Refuses a query deeper, with more aliases or asking for more rows than the limits allow. Rows are
 * counted as graph-node's `complexity` does (graphql/src/execution/query.rs): a list field of entities
 * costs `first + first × (its selections' cost)`, anything else its selections' cost; introspection costs
 * nothing. Unlike graph-node, a `first` given by a variable counts at its value. Returns the row count.
 */
export function checkQueryCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  request: { variables: Record<string, unknown> | undefined; operationName: string | undefined },
  limits: QueryLimits,
): number {
  refuseWhenRuleFails(schema, document, 'depth', `query has a depth that exceeds the limit of \`${limits.maxDepth}\``, (message) =>
    maxDepthRule({ n: limits.maxDepth, ignoreIntrospection: true, flattenFragments: true, exposeLimits: false, errorMessage: message }),
  )
  refuseWhenRuleFails(schema, document, 'aliases', `query has more aliases than the limit of \`${limits.maxAliases}\``, (message) =>
    maxAliasesRule({ n: limits.maxAliases, exposeLimits: false, errorMessage: message }),
  )

  let rows: number
  try {
    rows = getComplexity({
      schema,
      query: document,
      variables: request.variables ?? {},
      ...(request.operationName !== undefined && { operationName: request.operationName }),
      estimators: [graphNodeRows],
      maxQueryNodes: MAX_QUERY_NODES,
    })
  } catch (error) {
    // a query the walk cannot cost (variables that do not fit their types, too many nodes) is not forwarded
    throw new QueryRefused('unanalysable', (error as Error).message)
  }
  if (rows > limits.maxRows) {
    throw new QueryRefused(
      'rows',
      `query potentially returns \`${rows}\` entities or more and thereby exceeds the limit of \`${limits.maxRows}\` entities. ` +
        'Possible solutions are reducing the depth of the query, querying fewer relationships or using `first` to return smaller collections',
    )
  }
  return rows
}

/**
 * Runs one of graphql-armor's rules; it reports a breach by throwing (prefixed "Syntax Error"), which
 * becomes a refusal in graph-node's words.
 */
function refuseWhenRuleFails(
  schema: GraphQLSchema,
  document: DocumentNode,
  reason: RefusalReason,
  message: string,
  rule: (message: string) => ValidationRule,
): void {
  let errors: readonly GraphQLError[]
  try {
    errors = validate(schema, document, [rule(message)])
  } catch {
    throw new QueryRefused(reason, message)
  }
  if (errors.length > 0) throw new QueryRefused(reason, message)
}

const graphNodeRows: ComplexityEstimator = ({ field, args, childComplexity }) => {
  if (field.name.startsWith('__')) return 0
  const isEntityList = getNullableType(field.type) instanceof GraphQLList && isCompositeType(getNamedType(field.type))
  if (!isEntityList) return childComplexity
  // a `first` above graph-node's maximum is refused upstream in graph-node's words, before it reads a row
  const first = typeof args.first === 'number' ? Math.min(Math.max(args.first, 0), MAX_FIRST) : DEFAULT_FIRST
  return first + first * childComplexity
}
