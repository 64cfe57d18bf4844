import { buildClientSchema, FieldsOnCorrectTypeRule, getIntrospectionQuery, parse, validate, type IntrospectionQuery } from 'graphql'
import { postGraphql } from './graphql-post.ts'
import { ALL_QUERIES, isOmittable } from './queries.ts'

// Schema drift: which fields the service selects that a subgraph deployment lacks, found by
// introspecting the deployment and checking the service's own documents against its schema.

export interface MissingField {
  /** `Type.field` */
  field: string
  /** true: reads go on without it (null); false: reads that select it fail */
  optional: boolean
}

const UNKNOWN_FIELD = /^Cannot query field "(\w+)" on type "(\w+)"\./

export async function findMissingFields(
  url: string,
  timeoutMs: number,
  documents: readonly string[] = ALL_QUERIES,
): Promise<MissingField[]> {
  const schema = buildClientSchema((await postGraphql(url, getIntrospectionQuery(), {}, timeoutMs)) as IntrospectionQuery)
  const missing = new Set<string>()
  for (const document of documents) {
    for (const error of validate(schema, parse(document), [FieldsOnCorrectTypeRule])) {
      const match = UNKNOWN_FIELD.exec(error.message)
      if (match) missing.add(`${match[2]}.${match[1]}`)
    }
  }
  return [...missing].sort().map((field) => ({ field, optional: isOmittable(field) }))
}
