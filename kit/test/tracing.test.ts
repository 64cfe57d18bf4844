import t from 'tap'
import { createServer } from 'node:http'
import { once } from 'node:events'
import type { AddressInfo } from 'node:net'
import { inSpan, startTracing, traceCarrier } from '../tracing.ts'

t.test('off unless started: spans cost nothing and carry no context', async (t) => {
  const result = await inSpan('work', {}, async (span) => {
    t.equal(span.isRecording(), false)
    return traceCarrier()
  })
  t.same(result, {}, 'nothing to carry to another process')
})

t.test('started with an endpoint: spans go to <endpoint>/v1/traces over OTLP/HTTP', async (t) => {
  const requests: Array<{ method: string; url: string; contentType: string; body: string }> = []
  const collector = createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      requests.push({
        method: request.method!,
        url: request.url!,
        contentType: request.headers['content-type']!,
        body: Buffer.concat(chunks).toString(),
      })
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}')
    })
  })
  collector.listen(0, '127.0.0.1')
  await once(collector, 'listening')
  t.teardown(() => collector.close())
  const tracing = startTracing({
    serviceName: 'gateway-under-test',
    endpoint: `http://127.0.0.1:${(collector.address() as AddressInfo).port}`,
  })
  const carried = await inSpan('probe span', { attributes: { 'probe.n': 7 } }, async () => traceCarrier())
  t.match(carried.traceparent, /^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/, 'a W3C traceparent to carry')
  await tracing.forceFlush()
  await tracing.shutdown()
  t.equal(requests.length, 1)
  t.equal(requests[0]!.method, 'POST')
  t.equal(requests[0]!.url, '/v1/traces')
  t.equal(requests[0]!.contentType, 'application/json')
  const body = JSON.parse(requests[0]!.body) as {
    resourceSpans: Array<{
      resource: { attributes: Array<{ key: string; value: { stringValue?: string } }> }
      scopeSpans: Array<{ spans: Array<{ name: string; traceId: string }> }>
    }>
  }
  const [resourceSpans] = body.resourceSpans
  t.same(resourceSpans!.resource.attributes.find((attribute) => attribute.key === 'service.name')?.value, {
    stringValue: 'gateway-under-test',
  })
  const spans = resourceSpans!.scopeSpans.flatMap((scope) => scope.spans)
  t.same(
    spans.map((span) => span.name),
    ['probe span'],
  )
  t.equal(spans[0]!.traceId, carried.traceparent!.split('-')[1])
})
