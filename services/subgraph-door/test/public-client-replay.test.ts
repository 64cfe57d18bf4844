// Every public client query (standins/subgraph/test/fixtures/public-client-queries.ts, each with its
// source), verbatim with the variables its client sends, through the door: answered exactly as the
// subgraph stand-in answers it directly (status and body, byte for byte), the queries graph-node
// refuses included (the door forwards them and passes graph-node's refusal on). A client that posts
// to the venue's metadata backend is replayed at `/graph`.
//
// The stand-in's head follows the wall clock (a block every quarter second), so a query reading `_meta`
// could straddle a second between the direct answer and the door's: the stand-in's clock is pinned.
//
// The door's budget is 30 requests per 10 s per IP; the fixture sends each request from its own client
// IP, so the replays never meet it (door.test.ts tests the budget itself).

import t from 'tap'
import { buildClientSchema, parse, validate, type IntrospectionQuery } from 'graphql'
import { PUBLIC_CLIENT_QUERIES } from '../../../standins/subgraph/test/fixtures/public-client-queries.ts'
import { clientQueryText, clientVariables, REFUSED_BY_GRAPH_NODE } from '../../../standins/subgraph/test/fixtures/client-variables.ts'
import { startDoor } from './fixtures/door.ts'

t.test('every public client query, verbatim, through the door', async (t) => {
  const pinnedNow = Date.now()
  const door = await startDoor(t, {}, { clock: () => pinnedNow })
  const direct = async (body: string) => {
    const response = await fetch(door.standin.url(42161), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
      signal: AbortSignal.timeout(20_000),
    })
    return { status: response.status, text: await response.text() }
  }
  const head = JSON.parse((await direct(JSON.stringify({ query: '{ _meta { block { number } } }' }))).text).data._meta.block.number

  t.ok(PUBLIC_CLIENT_QUERIES.length >= 106, 'all the public client queries')
  for (const entry of PUBLIC_CLIENT_QUERIES) {
    t.test(`${entry.client} ${entry.name} (${entry.source.repo} ${entry.source.path})`, async (t) => {
      const query = clientQueryText(entry, head)
      const { operationName } = entry
      const body = JSON.stringify({ query, variables: clientVariables(entry, query), ...(operationName && { operationName }) })
      const expected = await direct(body)
      // at the path the client posts to: the door's, or the metadata backend's `/graph`
      const answer = await door.post(body, entry.path ? { path: entry.path } : {})
      t.equal(answer.status, expected.status, 'the stand-in’s status')
      t.equal(answer.text, expected.text, 'the stand-in’s body, byte for byte')
      const refusal = REFUSED_BY_GRAPH_NODE[entry.name]
      t.strictSame(
        answer.json().errors?.map((error: { message: string }) => error.message),
        refusal,
        refusal ? 'graph-node’s own refusal' : 'no errors',
      )
    })
  }
})

t.test('the Python SDK 3.0 validates its queries against the schema it introspects through the door', async (t) => {
  // gql 3.5.0 (fetch_schema_from_transport=True) builds a schema from its first answer and runs
  // graphql-core's standard validation on every query before sending it (gql/client.py lines 167-175)
  const door = await startDoor(t)
  const wire = PUBLIC_CLIENT_QUERIES.filter((entry) => entry.client === 'python-sdk-3.0-wire')
  const [introspection, ...queries] = wire
  t.equal(introspection!.name, 'IntrospectionQuery (fetch_schema_from_transport=True)')
  const answer = await door.query(introspection!.query)
  t.equal(answer.status, 200)
  const schema = buildClientSchema(answer.json().data as IntrospectionQuery)
  t.equal(queries.length, 8)
  for (const entry of queries) {
    t.strictSame(
      validate(schema, parse(entry.query)).map((error) => error.message),
      [],
      entry.name,
    )
  }
})
