// The parts of graph-node's query validation that differ from graphql-js: a variable may be declared
// with a neighbouring scalar type (`$trader: String!` where the schema says `Bytes`, `$id: String!` for
// `ID!`, `[Bytes!]` for `[ID!]`, an `Int` or `String` for a `BigInt`), which real clients rely on; and
// an unknown field is reported in graph-node's words.

import {
  GraphQLError,
  isEnumType,
  isListType,
  Kind,
  isNonNullType,
  specifiedRules,
  typeFromAST,
  VariablesInAllowedPositionRule,
  type ASTVisitor,
  type GraphQLType,
  type ValidationContext,
  type ValidationRule,
  type ValueNode,
  type VariableDefinitionNode,
} from 'graphql'

/** Scalar names that stand in for each other in a variable's declaration. */
const INTERCHANGEABLE: ReadonlyArray<ReadonlySet<string>> = [new Set(['ID', 'String', 'Bytes'])]
const WIDENING: Readonly<Record<string, ReadonlySet<string>>> = { BigInt: new Set(['Int', 'String']) }

export const GRAPH_NODE_RULES: readonly ValidationRule[] = specifiedRules.map((rule) =>
  rule === VariablesInAllowedPositionRule ? LenientVariablesInAllowedPositionRule : rule,
)

function LenientVariablesInAllowedPositionRule(context: ValidationContext): ASTVisitor {
  let definitions = new Map<string, VariableDefinitionNode>()
  return {
    OperationDefinition: {
      enter() {
        definitions = new Map()
      },
      leave(operation) {
        for (const { node, type, defaultValue } of context.getRecursiveVariableUsages(operation)) {
          const definition = definitions.get(node.name.value)
          if (!definition || !type) continue
          const variableType = typeFromAST(context.getSchema(), definition.type)
          if (variableType && !allowedUsage(variableType, definition.defaultValue, type, defaultValue !== undefined)) {
            context.reportError(
              new GraphQLError(
                `Variable "$${node.name.value}" of type "${String(variableType)}" used in position expecting type "${String(type)}".`,
                { nodes: [definition, node] },
              ),
            )
          }
        }
      },
    },
    VariableDefinition(node) {
      definitions.set(node.variable.name.value, node)
    },
  }
}

function allowedUsage(
  variableType: GraphQLType,
  variableDefault: ValueNode | undefined,
  locationType: GraphQLType,
  locationHasDefault: boolean,
): boolean {
  if (isNonNullType(locationType) && !isNonNullType(variableType)) {
    const hasDefault = (variableDefault !== undefined && variableDefault.kind !== Kind.NULL) || locationHasDefault
    return hasDefault && compatible(variableType, locationType.ofType)
  }
  return compatible(variableType, locationType)
}

function compatible(variableType: GraphQLType, locationType: GraphQLType): boolean {
  if (isNonNullType(locationType)) return isNonNullType(variableType) && compatible(variableType.ofType, locationType.ofType)
  if (isNonNullType(variableType)) return compatible(variableType.ofType, locationType)
  if (isListType(locationType)) return isListType(variableType) && compatible(variableType.ofType, locationType.ofType)
  if (isListType(variableType)) return false
  const [variable, location] = [variableType.name, locationType.name]
  return (
    variable === location ||
    INTERCHANGEABLE.some((group) => group.has(variable) && group.has(location)) ||
    (WIDENING[location]?.has(variable) ?? false) ||
    // an enum filter also takes a string (schema.ts), so a `String` variable may fill it
    (variable === 'String' && isEnumType(locationType))
  )
}

const UNKNOWN_FIELD = /^Cannot query field "(\w+)" on type "(\w+)"\./

/**
 * The validation errors as graph-node reports them. With its GraphQL validation plan off (the default:
 * `ENABLE_GRAPHQL_VALIDATIONS` is false, `graph/src/env/graphql.rs`), graph-node first checks that every
 * selected field exists (`validate_fields`, `graphql/src/execution/query.rs`) and answers with all the
 * unknown fields, in document order, before it reads any argument; so where a field is unknown, the
 * argument errors graphql-js also finds are not reported.
 */
export function inGraphNodeWords(errors: readonly GraphQLError[]): GraphQLError[] {
  const unknownFields = errors.flatMap((error) => {
    const unknownField = UNKNOWN_FIELD.exec(error.message)
    return unknownField ? [new GraphQLError(`Type \`${unknownField[2]}\` has no field \`${unknownField[1]}\``, { nodes: error.nodes })] : []
  })
  return unknownFields.length > 0 ? unknownFields : [...errors]
}
