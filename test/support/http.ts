/** A response body as JSON; tests assert its exact fields. */
export const readJson = async (response: Response): Promise<any> => response.json()

/** POST /v1/onboard as the client at `ip` (loopback is a trusted proxy), on a connection of its own. */
export const postOnboarding = (baseUrl: string, body: unknown, ip: string) =>
  fetch(`${baseUrl}/v1/onboard`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': ip, connection: 'close' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  })

/**
 * Client IPs from the benchmarking range 198.18.0.0/15, a new one at each call, so that each request
 * draws on a rate-limit budget of its own (loopback is a trusted proxy: send it as X-Forwarded-For).
 */
export function distinctClientIps(): () => string {
  let clients = 0
  return () => {
    clients++
    return `198.18.${Math.floor(clients / 250)}.${(clients % 250) + 1}`
  }
}
