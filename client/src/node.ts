// Node's side of the stream client: sockets from the `ws` package, which can send headers and see why an
// upgrade was refused (a browser WebSocket can do neither).
import WebSocket from 'ws'
import type { OpenSocket } from './price-stream-client.ts'

export function nodeSocket(options: { headers?: Record<string, string> } = {}): OpenSocket {
  return (url, onRefused) => {
    const socket = new WebSocket(url, { headers: options.headers })
    socket.on('unexpected-response', (_request, response) => {
      onRefused({ status: response.statusCode ?? 0, retryAfterSeconds: Number(response.headers['retry-after'] ?? 0) })
      response.resume()
      socket.terminate()
    })
    return socket
  }
}
