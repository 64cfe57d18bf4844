// Every target form the load test's usage names reaches the service: http://, https://, ws:// and wss://.
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import t from 'tap'
import { estimateClockOffset } from '../clock-offset.ts'
import { httpBase, streamUrl } from '../targets.ts'

t.test('the HTTP base and the stream URL of each form', async (t) => {
  t.equal(httpBase('http://127.0.0.1:8080').href, 'http://127.0.0.1:8080/')
  t.equal(httpBase('https://gateway.example').href, 'https://gateway.example/')
  t.equal(httpBase('ws://127.0.0.1:8080').href, 'http://127.0.0.1:8080/')
  t.equal(httpBase('wss://gateway.example:8443').href, 'https://gateway.example:8443/')
  t.equal(streamUrl('http://127.0.0.1:8080'), 'ws://127.0.0.1:8080/v1/prices/stream')
  t.equal(streamUrl('https://gateway.example'), 'wss://gateway.example/v1/prices/stream')
  t.equal(streamUrl('ws://127.0.0.1:8080'), 'ws://127.0.0.1:8080/v1/prices/stream')
  t.equal(streamUrl('wss://gateway.example:8443/'), 'wss://gateway.example:8443/v1/prices/stream')
})

t.test("the service's clock is read over HTTP whichever form the target has", async (t) => {
  const paths: string[] = []
  // a service whose clock runs 5 s ahead of ours
  const server = createServer((request, response) => {
    paths.push(request.url ?? '')
    response.setHeader('content-type', 'application/json')
    response.end(JSON.stringify({ status: 'ok', time: Date.now() + 5000 }))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => new Promise((resolve) => server.close(resolve)))
  const { port } = server.address() as AddressInfo
  for (const target of [`ws://127.0.0.1:${port}`, `http://127.0.0.1:${port}/`]) {
    paths.length = 0
    const clock = await estimateClockOffset(target, 3)
    t.same(paths, ['/v1/status', '/v1/status', '/v1/status'], `${target}: GET /v1/status, once per sample`)
    // the service read its clock somewhere within the shortest round trip: off by at most half of it
    t.ok(Math.abs(clock.offsetMs - 5000) <= clock.uncertaintyMs + 2, `${target}: offset ${clock.offsetMs} ± ${clock.uncertaintyMs} ms`)
  }
})
