// The HTTP server: one subgraph endpoint per chain on one port, plus the fault switch.

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createYoga, type Plugin } from 'graphql-yoga'
import { validate, type DocumentNode, type GraphQLError, type GraphQLSchema } from 'graphql'
import { chainHeadAt } from './chain-head.ts'
import { INDEXING_ERROR_BODY, LAG_SECONDS, type Fault } from './faults.ts'
import { CHAIN_IDS, type ChainId } from './rows.ts'
import { GRAPH_NODE_RULES, inGraphNodeWords } from './graph-node-validation.ts'
import { buildSubgraphSchema, tablesOf, type SubgraphContext } from './schema.ts'
import { DEFAULT_SEED, seedData } from './seed/seed-data.ts'

export interface IndexerStandinOptions {
  /** default 127.0.0.1 */
  host?: string
  /** default 0: any free port */
  port?: number
  /** seed of the generated data; default DEFAULT_SEED */
  seed?: number
  /** fields this deployment lacks, e.g. `['Pair.priceImpactK']`: an older or newer subgraph version */
  withoutFields?: readonly string[]
  /** the wall clock `_meta`'s head follows, in milliseconds; default Date.now (a test pins it to compare answers) */
  clock?: () => number
}

export interface IndexerStandin {
  /** the chain's subgraph endpoint, e.g. http://127.0.0.1:8090/subgraphs/venue-42161 */
  url(chainId: ChainId): string
  /** applies to every request that arrives from now on, on every chain */
  setFault(fault: Fault): void
  /** stops listening and drops every open connection, hanging ones included; safe to call twice */
  close(): Promise<void>
}

interface Answer {
  status: number
  contentType: string
  body: Buffer
}

type ChainEndpoint = (request: IncomingMessage) => Promise<Answer>

export function subgraphPath(chainId: ChainId): string {
  return `/subgraphs/venue-${chainId}`
}

export async function startIndexerStandin(options: IndexerStandinOptions = {}): Promise<IndexerStandin> {
  const { host = '127.0.0.1', port = 0, seed = DEFAULT_SEED, withoutFields = [], clock = Date.now } = options
  let fault: Fault = 'none'
  const schema = buildSubgraphSchema(withoutFields)
  const endpoints = new Map<string, ChainEndpoint>(
    CHAIN_IDS.map((chainId) => [subgraphPath(chainId), chainEndpoint(chainId, seed, schema, clock, () => fault)]),
  )

  const server = createServer((request, response) => {
    serve(request, response).catch(() => response.destroy())
  })

  async function serve(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const endpoint = endpoints.get(new URL(request.url ?? '/', 'http://standin').pathname)
    if (!endpoint) return sendText(response, 404, 'Not Found')
    const current = fault
    // Left unanswered on purpose; close() drops the connection.
    if (current === 'hang') return
    if (current === 'http-500') return sendText(response, 500, 'Internal Server Error')
    if (current === 'graphql-errors') {
      return send(response, { status: 200, contentType: 'application/json', body: Buffer.from(JSON.stringify(INDEXING_ERROR_BODY)) })
    }
    const answer = await endpoint(request)
    if (current === 'reset-mid-response') return sendHalfThenDrop(response, answer)
    send(response, answer)
  }

  await listen(server, port, host)
  const origin = `http://${host.includes(':') ? `[${host}]` : host}:${(server.address() as AddressInfo).port}`
  return {
    url: (chainId) => `${origin}${subgraphPath(chainId)}`,
    setFault: (next) => {
      fault = next
    },
    close: () => closeServer(server),
  }
}

function chainEndpoint(
  chainId: ChainId,
  seed: number,
  schema: GraphQLSchema,
  clock: () => number,
  currentFault: () => Fault,
): ChainEndpoint {
  const data = seedData(chainId, seed)
  const context: SubgraphContext = {
    tables: tablesOf(data),
    changedAtBlock: data.changedAtBlock,
    deployment: `QmVenueIndexerStandin${chainId}`,
    head: () => chainHeadAt(chainId, Math.floor(clock() / 1000) - (currentFault() === 'lagging' ? LAG_SECONDS : 0)),
  }
  const yoga = createYoga<Record<string, never>, SubgraphContext>({
    schema,
    context: () => context,
    graphqlEndpoint: subgraphPath(chainId),
    plugins: [graphNodeValidation],
    logging: false,
    maskedErrors: false,
    graphiql: false,
    landingPage: false,
  })
  return async (request) => {
    const hasBody = request.method !== 'GET' && request.method !== 'HEAD'
    const response = await yoga.fetch(`http://standin${request.url ?? '/'}`, {
      method: request.method ?? 'POST',
      headers: {
        'content-type': request.headers['content-type'] ?? 'application/json',
        // The Graph answers GraphQL errors with HTTP 200; yoga does too for clients accepting
        // application/json (for application/graphql-response+json it would answer 400).
        accept: 'application/json',
      },
      body: hasBody ? await readBody(request) : undefined,
    })
    return {
      status: response.status,
      contentType: response.headers.get('content-type') ?? 'application/json',
      body: Buffer.from(await response.arrayBuffer()),
    }
  }
}

/** graph-node's validation rules and wording (graph-node-validation.ts). */
const graphNodeValidation: Plugin = {
  onValidate({ setValidationFn }) {
    setValidationFn((schema: GraphQLSchema, document: DocumentNode) => validate(schema, document, GRAPH_NODE_RULES))
    return ({ result, setResult }) => setResult(inGraphNodeWords(result as GraphQLError[]))
  },
}

function send(response: ServerResponse, answer: Answer): void {
  response.writeHead(answer.status, { 'content-type': answer.contentType, 'content-length': answer.body.length })
  response.end(answer.body)
}

function sendText(response: ServerResponse, status: number, text: string): void {
  send(response, { status, contentType: 'text/plain; charset=utf-8', body: Buffer.from(text) })
}

/** The headers and the first half of the body, then the connection closes before the promised length. */
function sendHalfThenDrop(response: ServerResponse, answer: Answer): void {
  response.writeHead(answer.status, { 'content-type': answer.contentType, 'content-length': answer.body.length })
  response.write(answer.body.subarray(0, Math.floor(answer.body.length / 2)), () => response.destroy())
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of request) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => {
      server.off('error', reject)
      resolve()
    })
  })
}

function closeServer(server: Server): Promise<void> {
  if (!server.listening) return Promise.resolve()
  return new Promise((resolve, reject) => {
    server.close((error) => (error ? reject(error) : resolve()))
    server.closeAllConnections()
  })
}
