/** A response body as JSON; tests assert its exact fields. */
export const readJson = async (response: Response): Promise<any> => response.json()

/** POST /v1/onboard as the client at `ip` (loopback is a trusted proxy), on a connection of its own. */
export const postOnboarding = (baseUrl: string, body: unknown, ip: string) =>
  fetch(`${baseUrl}/v1/onboard`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': ip, connection: 'close' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  })
