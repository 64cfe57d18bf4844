import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { closableFetch } from '../../kit/closable-fetch.ts'
import { listenOnLoopback } from './loopback-http.ts'

export interface JsonRpcCall {
  method: string
  params?: unknown[]
}

export interface JsonRpcError {
  code: number
  message: string
}

export interface JsonRpcProxy {
  url: string
  /** the method of every call received, refused ones included, in order */
  methods: string[]
  close(): Promise<void>
}

/**
 * A loopback JSON-RPC endpoint that forwards to `target`, except for the calls `refuse` picks, which it
 * answers with a JSON-RPC error of its own (-32000 unless `refuse` names one): a node that fails some requests
 * and serves the rest, or a bundler without some method.
 */
export async function startJsonRpcProxy(target: string, refuse: (call: JsonRpcCall) => boolean | JsonRpcError): Promise<JsonRpcProxy> {
  const upstream = closableFetch()
  const methods: string[] = []
  // A forward that fails (the node dropped a kept-alive connection as it was reused, a client went away, the
  // proxy is closing) is answered as a node's gateway would, with a 502, which the client's transport retries:
  // never an unhandled rejection from a handler whose promise node:http ignores
  // eslint-disable-next-line @typescript-eslint/no-misused-promises
  const server = createServer(async (request, response) => {
    try {
      await answer(request, response)
    } catch {
      if (response.headersSent || response.destroyed) response.destroy()
      else response.writeHead(502).end()
    }
  })
  const answer = async (request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = []
    for await (const chunk of request) chunks.push(chunk as Buffer)
    const body = Buffer.concat(chunks).toString()
    const call = JSON.parse(body) as JsonRpcCall & { id: unknown }
    response.setHeader('content-type', 'application/json')
    if (!Array.isArray(call)) methods.push(call.method)
    const refusal = Array.isArray(call) ? false : refuse(call)
    if (refusal) {
      const error = refusal === true ? { code: -32000, message: 'refused by the test proxy' } : refusal
      response.end(JSON.stringify({ jsonrpc: '2.0', id: call.id, error }))
      return
    }
    const forwarded = await upstream.fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
    response.statusCode = forwarded.status
    response.end(await forwarded.text())
  }
  const listening = await listenOnLoopback(server)
  return {
    url: listening.url,
    methods,
    async close() {
      upstream.close()
      await listening.close()
    },
  }
}
