import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { closableFetch } from '../../services/onboarding/closable-fetch.ts'

export interface JsonRpcCall {
  method: string
  params?: unknown[]
}

export interface JsonRpcProxy {
  url: string
  close(): Promise<void>
}

/**
 * A loopback JSON-RPC endpoint that forwards to `target`, except for the calls `refuse` picks, which it
 * answers with a JSON-RPC error of its own: a node that fails some requests and serves the rest.
 */
export async function startJsonRpcProxy(target: string, refuse: (call: JsonRpcCall) => boolean): Promise<JsonRpcProxy> {
  const upstream = closableFetch()
  const server = createServer(async (request, response) => {
    const chunks: Buffer[] = []
    for await (const chunk of request) chunks.push(chunk as Buffer)
    const body = Buffer.concat(chunks).toString()
    const call = JSON.parse(body) as JsonRpcCall & { id: unknown }
    response.setHeader('content-type', 'application/json')
    if (!Array.isArray(call) && refuse(call)) {
      response.end(JSON.stringify({ jsonrpc: '2.0', id: call.id, error: { code: -32000, message: 'refused by the test proxy' } }))
      return
    }
    const forwarded = await upstream.fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
    response.statusCode = forwarded.status
    response.end(await forwarded.text())
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    async close() {
      upstream.close()
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    },
  }
}
