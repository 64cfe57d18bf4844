// Plain HTTP requests from a chosen local address: each load client is a client of its own to the budgets.
import { request } from 'node:http'

export interface Answer {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: string
}

/** One request on a connection of its own; rejects on a network error or after `timeoutMs`. */
export function httpRequest(
  url: string,
  options: { method?: string; body?: string; localAddress?: string; timeoutMs?: number } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: options.method ?? 'GET',
        localAddress: options.localAddress,
        agent: false,
        timeout: options.timeoutMs ?? 10_000,
        headers: options.body ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(options.body) } : {},
      },
      (res) => {
        let body = ''
        res.setEncoding('utf8')
        res.on('data', (chunk: string) => (body += chunk))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }))
        res.on('error', reject)
      },
    )
    req.on('timeout', () => req.destroy(new Error(`no answer within ${options.timeoutMs ?? 10_000} ms`)))
    req.on('error', reject)
    req.end(options.body)
  })
}

export const jsonOf = (answer: Answer): any => {
  try {
    return JSON.parse(answer.body)
  } catch {
    return undefined
  }
}
