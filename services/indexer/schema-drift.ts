import {
  buildClientSchema,
  getIntrospectionQuery,
  isNonNullType,
  isObjectType,
  parse,
  validate,
  type GraphQLSchema,
  type IntrospectionQuery,
  type OperationDefinitionNode,
} from 'graphql'
import { postGraphql } from './graphql-post.ts'
import { ALL_QUERIES, isOmittable, selectedFields } from './queries.ts'

// Schema drift: what of the service's reads a subgraph deployment would not answer as the service
// expects, found by introspecting the deployment: a field it lacks, a field the service needs that it
// declares nullable, and a query it refuses for another reason (an argument, a filter or an orderBy
// value it does not have), each checked with the service's own documents against its schema.

export interface DriftFinding {
  /** `Type.field`, or the name of the query the deployment refuses */
  field: string
  /** true: reads go on without it (read as null); false: reads fail or leave records out */
  optional: boolean
  kind: 'missing' | 'nullable' | 'refused'
  /** for a refused query: the deployment's reason */
  reason?: string
}

/** `Type.field` → whether the deployment declares it non-null, for every field of its object types. */
export type DeclaredFields = ReadonlyMap<string, boolean>

const UNKNOWN_FIELD = /^Cannot query field "(\w+)" on type "(\w+)"\./

export async function findSchemaDrift(url: string, timeoutMs: number, documents: readonly string[] = ALL_QUERIES): Promise<DriftFinding[]> {
  return driftIn(buildClientSchema((await postGraphql(url, getIntrospectionQuery(), {}, timeoutMs)) as IntrospectionQuery), documents)
}

/** The findings for a deployment's schema, sorted: by field, then kind. */
export function driftIn(schema: GraphQLSchema, documents: readonly string[] = ALL_QUERIES): DriftFinding[] {
  const findings = new Map<string, DriftFinding>()
  for (const document of documents) {
    const parsed = parse(document)
    for (const error of validate(schema, parsed)) {
      const unknownField = UNKNOWN_FIELD.exec(error.message)
      if (unknownField) {
        const field = `${unknownField[2]}.${unknownField[1]}`
        findings.set(`${field} missing`, { field, optional: isOmittable(field), kind: 'missing' })
      } else {
        const field = (parsed.definitions[0] as OperationDefinitionNode).name?.value ?? 'query'
        findings.set(`${field} refused ${error.message}`, { field, optional: false, kind: 'refused', reason: error.message })
      }
    }
  }
  for (const finding of nullableInDeployment(declaredFieldsOf(schema))) findings.set(`${finding.field} nullable`, finding)
  return [...findings.values()].sort((a, b) => (a.field === b.field ? a.kind.localeCompare(b.kind) : a.field < b.field ? -1 : 1))
}

/** Fields the service cannot read without that the deployment declares nullable: a record holding a null is left out. */
export function nullableInDeployment(declared: DeclaredFields): DriftFinding[] {
  return selectedFields()
    .filter(({ field, optional }) => !optional && declared.get(field) === false)
    .filter(({ field }, index, all) => all.findIndex((entry) => entry.field === field) === index)
    .map(({ field }) => ({ field, optional: false, kind: 'nullable' as const }))
}

export function declaredFieldsOf(schema: GraphQLSchema): DeclaredFields {
  const declared = new Map<string, boolean>()
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__')) continue
    for (const field of Object.values(type.getFields())) declared.set(`${type.name}.${field.name}`, isNonNullType(field.type))
  }
  return declared
}

/** One line of the drift report for a finding. */
export function describeFinding(finding: DriftFinding): string {
  switch (finding.kind) {
    case 'missing':
      return finding.optional ? 'optional: read as null' : 'required: reads selecting it fail'
    case 'nullable':
      return 'required, but nullable here: a record where it is null is left out'
    case 'refused':
      return `refused: ${finding.reason}`
  }
}
