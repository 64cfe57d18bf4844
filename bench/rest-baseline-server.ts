// The REST bench's baseline: a bare uWebSockets.js route writing the service's own snapshot bytes (fetched
// once per coding, as the service sends them), so the ratio shows what the service's request path costs.
import { request } from 'node:http'
import { loadNativeUws } from '../services/http/native-uws.ts'

const [sourceUrl, port] = [process.argv[2]!, Number(process.argv[3])]

function fetchRaw(acceptEncoding: string): Promise<{ body: Buffer; coding: string | undefined }> {
  return new Promise((resolve, reject) => {
    request(sourceUrl, { headers: { 'accept-encoding': acceptEncoding } }, (response) => {
      const chunks: Buffer[] = []
      response.on('data', (chunk: Buffer) => chunks.push(chunk))
      response.on('end', () => resolve({ body: Buffer.concat(chunks), coding: response.headers['content-encoding'] }))
    })
      .on('error', reject)
      .end()
  })
}

const [identity, gzip, br] = await Promise.all(['identity', 'gzip', 'br'].map(fetchRaw))
if (gzip!.coding !== 'gzip' || br!.coding !== 'br') throw new Error('the service did not answer compressed')

loadNativeUws()
  .App()
  .get('/v1/prices', (res, req) => {
    const accepted = req.getHeader('accept-encoding')
    const variant = accepted === 'br' ? br! : accepted === 'gzip' ? gzip! : identity!
    res.writeHeader('content-type', 'application/json')
    if (variant.coding) res.writeHeader('content-encoding', variant.coding)
    res.end(variant.body)
  })
  .listen('127.0.0.1', port, (socket) => {
    if (!socket) throw new Error(`cannot listen on ${port}`)
    console.log(`baseline listening: ${identity!.body.length} bytes, gzip ${gzip!.body.length}, br ${br!.body.length}`)
  })
