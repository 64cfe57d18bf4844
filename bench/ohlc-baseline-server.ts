// The OHLC bench's baseline: a bare uWebSockets.js POST /v1/ohlc route answering each request body with the
// service's own answer to it (fetched once), so the ratio shows what the service's request path and candle
// store cost. Arguments: the service's OHLC URL, the port, the request bodies as one JSON array.
import { loadNativeUws } from '../services/http/native-uws.ts'

const [sourceUrl, port, bodiesJson] = [process.argv[2]!, Number(process.argv[3]), process.argv[4]!]
const bodies = JSON.parse(bodiesJson) as string[]

const answers = new Map<string, Buffer>()
for (const body of bodies) {
  const response = await fetch(sourceUrl, { method: 'POST', body, headers: { 'content-type': 'application/json' } })
  if (response.status !== 200) throw new Error(`the service answered ${response.status} to ${body}`)
  answers.set(body, Buffer.from(await response.arrayBuffer()))
}

loadNativeUws()
  .App()
  .post('/v1/ohlc', (res) => {
    const chunks: Buffer[] = []
    res.onAborted(() => undefined)
    res.onData((chunk, isLast) => {
      chunks.push(Buffer.from(chunk.slice(0)))
      if (!isLast) return
      const answer = answers.get(Buffer.concat(chunks).toString())
      res.cork(() => {
        if (!answer) return res.writeStatus('404 Not Found').end()
        res.writeHeader('content-type', 'application/json').end(answer)
      })
    })
  })
  .listen('127.0.0.1', port, (socket) => {
    if (!socket) throw new Error(`cannot listen on ${port}`)
    console.log(`baseline listening: ${[...answers.values()].map((answer) => answer.length).join(', ')} bytes`)
  })
