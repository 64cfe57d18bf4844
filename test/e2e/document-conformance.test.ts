// What a live service sends, held to the two documents: a price row from the real ingestor (calendar
// clock), every kind of stream frame, and every error body shape the REST API answers with.
import t from 'tap'
import { Ajv } from 'ajv'
import { Ajv2020 } from 'ajv/dist/2020.js'
import { createMetrics } from '../../kit/metrics.ts'
import { buildOpenApiDocument } from '../../schemas/openapi.ts'
import { asyncApiDocument } from '../../services/edge/api-document-routes.ts'
import { startIngestorRole } from '../../services/ingestor/role.ts'
import { startTestEdge } from '../support/edge-harness.ts'
import { bulkyRowBytes, priceRow, rowBytes } from '../support/price-rows.ts'
import { RawStreamClient } from '../support/raw-ws.ts'
import { openStream, publishUntilLagging } from '../support/stream-clients.ts'
import { silentLogger } from '../support/silent-logger.ts'

const openApi = JSON.parse(JSON.stringify(buildOpenApiDocument()))
const asyncApi = JSON.parse(JSON.stringify(asyncApiDocument()))
const ajv2020 = new Ajv2020({ strict: false, allErrors: true }).addSchema(openApi, 'openapi')
const ajv7 = new Ajv({ strict: false, allErrors: true }).addSchema(asyncApi, 'asyncapi')
const escape = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1')

t.test('live rows, frames and error bodies fit the OpenAPI and AsyncAPI documents', async (t) => {
  const edge = await startTestEdge()
  t.teardown(edge.stop)

  /** Validates against a schema of a document by JSON pointer. */
  const fits = (ajv: Ajv | Ajv2020, pointer: string, value: unknown, what: string) => {
    const validate = ajv.getSchema(pointer)
    if (!validate) return t.fail(`${pointer} is in the document`)
    t.ok(validate(value), `${what} fits ${pointer}: ${ajv.errorsText(validate.errors)}`)
  }
  /** Calls the edge and checks status, then the body against the document's response for that status. */
  const answer = async (path: string, documentedPath: string, init: RequestInit = {}) => {
    const response = await fetch(edge.baseUrl + path, init)
    const body: unknown = await response.json()
    const method = (init.method ?? 'GET').toLowerCase()
    const documented = openApi.paths[documentedPath]?.[method]?.responses[String(response.status)]
    if (documented) {
      fits(
        ajv2020,
        `openapi#/paths/${escape(documentedPath)}/${method}/responses/${response.status}/content/${escape('application/json')}/schema`,
        body,
        `${method} ${path}`,
      )
    } else {
      // a status no operation documents (an unknown route, a wrong method): the framework shape
      fits(ajv2020, 'openapi#/components/schemas/FrameworkError', body, `${method} ${path} ${response.status}`)
    }
    return { status: response.status, body: body as Record<string, unknown> }
  }

  // before the feed's first tick
  t.equal((await answer('/v1/prices', '/v1/prices')).status, 503)
  t.equal((await answer('/v1/prices/BTC-USD', '/v1/prices/{pair}')).status, 503)

  const ingestor = startIngestorRole({
    env: { SIM_TICKS_PER_SECOND: '400' },
    bus: edge.bus,
    logger: silentLogger(),
    metrics: createMetrics(),
  })
  t.teardown(() => ingestor.stop())
  const client = await openStream(edge.streamUrl)
  t.teardown(() => client.socket.terminate())
  const compact = await openStream(`${edge.streamUrl}?format=compact&cursor=true`)
  t.teardown(() => compact.socket.terminate())
  const tick = await client.messages.waitFor((message) => message.type === 'tick', 'a tick from the ingestor')

  const row = await answer(`/v1/prices/${tick.data.pair}`, '/v1/prices/{pair}')
  t.equal(row.status, 200)
  t.match(
    row.body.schedule,
    { timezone: String, openingHours: Array, dayTradingHours: { from: String, to: String } },
    'the row carries the whole schedule',
  )
  fits(ajv2020, 'openapi#/components/schemas/PriceRow', row.body, 'a live row')
  fits(ajv7, 'asyncapi#/components/schemas/PriceRow', row.body, 'a live row, as the bus carries it')
  t.equal((await answer('/v1/prices', '/v1/prices')).status, 200)
  t.equal((await answer('/v1/status', '/v1/status')).status, 200)

  // every error body the REST API answers with
  t.equal((await answer('/v1/prices?x=1', '/v1/prices')).status, 400)
  t.equal((await answer('/v1/prices/NOPE-USD', '/v1/prices/{pair}')).status, 404)
  t.equal((await answer('/v1/prices/stream', '/v1/prices/stream')).status, 426)
  t.equal((await answer('/v1/nowhere', '/v1/nowhere')).status, 404)
  t.equal((await answer('/v1/prices', '/v1/prices', { method: 'POST', body: '{}' })).status, 405)
  // spend the status budget without asserting (how many requests that takes depends on the window)
  while ((await fetch(`${edge.baseUrl}/v1/status`)).status !== 429);
  t.equal((await answer('/v1/status', '/v1/status')).status, 429)

  // every frame kind, against the AsyncAPI message it is sent as
  const message = (name: string) => `asyncapi#/components/schemas/${asyncApi.components.messages[name].payload.$ref.split('/').pop()}`
  fits(ajv7, message('snapshot'), client.messages.items[0], 'the snapshot')
  fits(ajv7, message('tick'), tick, 'a tick')
  const compactTick = await compact.messages.waitFor((frame) => frame.type === 't', 'a compact tick')
  fits(ajv7, message('compactSnapshotWithCursor'), compact.messages.items[0], 'the snapshot of compact frames')
  fits(ajv7, message('compactTickWithCursor'), compactTick, 'a compact tick')
  // a feed id of its own: the row's static part changes, and a static frame goes first
  edge.bus.publishTick('BTC-USD', rowBytes(priceRow('BTC-USD', { feed_id: '0x' + 'a'.repeat(64) })))
  const staticPart = await compact.messages.waitFor(
    (frame) => frame.type === 'static' && frame.data.feed_id.startsWith('0xaaa'),
    'a static part',
  )
  fits(ajv7, message('static'), staticPart, 'a static part')
  const before = client.messages.items.length
  client.send({ type: 'subscribe', pairs: ['XAU-USD'] })
  client.send({ type: 'unsubscribe', pairs: ['XAU-USD'] })
  client.send('not json')
  const [ack, noFilter, malformed] = await Promise.all([
    client.messages.waitFor((frame) => frame.type === 'ack', 'the ack', { from: before }),
    client.messages.waitFor((frame) => frame.type === 'error' && frame.code === 'no_filter', 'no_filter', { from: before }),
    client.messages.waitFor((frame) => frame.type === 'error' && frame.code === 'malformed', 'malformed', { from: before }),
  ])
  fits(ajv7, message('ack'), ack, 'an ack')
  fits(ajv7, message('error'), noFilter, 'an error frame')
  fits(ajv7, message('error'), malformed, 'an error frame')
  fits(ajv7, message('filterChange'), { type: 'subscribe', pairs: ['XAU-USD'] }, 'what the client sent')

  // a gap: a reader that stopped reading while ticks piled up
  const paused = await RawStreamClient.connect(`${edge.streamUrl}?pairs=BTC-USD`)
  t.teardown(() => paused.destroy())
  await paused.frames.waitFor((frame) => frame.json?.type === 'snapshot', 'the snapshot')
  paused.pause()
  let mid = 1
  await publishUntilLagging(edge, () => {
    for (let index = 0; index < 100; index++) edge.bus.publishTick('BTC-USD', bulkyRowBytes('BTC-USD', mid++))
  })
  paused.resume()
  const gap = await paused.frames.waitFor((frame) => frame.json?.type === 'gap', 'a gap', { timeoutMs: 20_000 })
  fits(ajv7, message('gap'), gap.json, 'a gap')
})
