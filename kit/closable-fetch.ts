import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http'
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https'

export interface ClosableFetch {
  fetch: typeof fetch
  /** closes the kept-alive connections, so that they do not hold the process open after shutdown */
  close(): void
}

/**
 * A fetch for viem's HTTP transport that keeps connections alive in agents of its own. The global fetch
 * keeps its idle sockets in a pool nobody can close, which keeps a stopped service's process alive.
 * Enough of fetch for JSON-RPC: method, headers, a text body, abort signals.
 */
export function closableFetch(): ClosableFetch {
  const agents = { http: new HttpAgent({ keepAlive: true }), https: new HttpsAgent({ keepAlive: true }) }

  const fetchOver = (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    const url = new URL(input instanceof Request ? input.url : input)
    const secure = url.protocol === 'https:'
    const send = secure ? httpsRequest : httpRequest
    return new Promise((resolve, reject) => {
      const request = send(
        url,
        {
          method: init.method ?? 'GET',
          headers: headerRecord(new Headers(init.headers)),
          agent: secure ? agents.https : agents.http,
          ...(init.signal && { signal: init.signal }),
        },
        (response) => void readResponse(response).then(resolve, reject),
      )
      request.once('error', reject)
      request.end(typeof init.body === 'string' ? init.body : undefined)
    })
  }

  return {
    fetch: fetchOver,
    close() {
      agents.http.destroy()
      agents.https.destroy()
    },
  }
}

/** Headers as a plain record; Node's Headers type (without the DOM library) has forEach but not entries() */
function headerRecord(headers: Headers): Record<string, string> {
  const record: Record<string, string> = {}
  headers.forEach((value, name) => {
    record[name] = value
  })
  return record
}

async function readResponse(response: IncomingMessage): Promise<Response> {
  const chunks: Buffer[] = []
  for await (const chunk of response) chunks.push(chunk as Buffer)
  const headers = new Headers()
  for (const [name, value] of Object.entries(response.headers)) {
    for (const item of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, item)
  }
  return new Response(Buffer.concat(chunks), { status: response.statusCode ?? 500, statusText: response.statusMessage ?? '', headers })
}
