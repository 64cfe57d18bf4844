// The REST bench's baseline: plain node:http serialising the same snapshot on every request.
import { createServer } from 'node:http'

const [sourceUrl, port] = [process.argv[2]!, Number(process.argv[3])]
const { prices } = (await (await fetch(sourceUrl)).json()) as { prices: unknown[] }

createServer((req, res) => {
  if (req.url !== '/v1/prices') {
    res.writeHead(404).end()
    return
  }
  const body = JSON.stringify({ prices, stale: false, generatedAt: Date.now() })
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body)
}).listen(port, '127.0.0.1', () => console.log('baseline listening'))
