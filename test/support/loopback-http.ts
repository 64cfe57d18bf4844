import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface LoopbackHttp {
  url: string
  /** closes the server and every connection it holds */
  close(): Promise<void>
}

/** Listens on a free port of 127.0.0.1. */
export async function listenOnLoopback(server: Server): Promise<LoopbackHttp> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    async close() {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    },
  }
}
