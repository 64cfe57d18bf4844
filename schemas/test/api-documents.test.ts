import t from 'tap'
import { Parser } from '@asyncapi/parser'
import { execFile } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { busNames } from '../../bus/subjects.ts'
import { buildAsyncApiDocument } from '../asyncapi.ts'
import { STREAM_LIMITS } from '../../services/http/budgets.ts'
import { DepthBook, Quote } from '../depth.ts'
import { FrameworkError, NoTicksYetError, UpstreamProxyError } from '../errors.ts'
import { LimitsEnvelope } from '../limits.ts'
import { MarketHoursResponse } from '../market-hours.ts'
import { OhlcRequest, OhlcResponse } from '../ohlc.ts'
import { OnboardPending, OnboardRejection, OnboardRequest, OnboardResponse } from '../onboarding.ts'
import * as examples from '../openapi-examples.ts'
import { buildOpenApiDocument } from '../openapi.ts'
import { SUBGRAPH_DOOR_DEFAULTS } from '../subgraph-door.ts'
import { OrdersEnvelope } from '../orders.ts'
import { PairsEnvelope } from '../pair-list.ts'
import { PriceRow, PriceSnapshot, StatusRecord } from '../price.ts'
import { TradesEnvelope } from '../trades.ts'
import { UdfConfig, UdfError, UdfHistory, UdfSearchResult, UdfSymbolInfo } from '../udf.ts'

const redocly = createRequire(import.meta.url).resolve('@redocly/cli/bin/cli.js')
const directory = mkdtempSync(join(tmpdir(), 'api-documents-'))

/** Runs `redocly lint` with its recommended rules (no configuration file) and returns its JSON report. */
async function lint(
  document: unknown,
): Promise<{ totals: { errors: number; warnings: number }; problems: Array<{ ruleId: string; message: string }> }> {
  const file = join(directory, `openapi-${Math.random().toString(36).slice(2)}.json`)
  writeFileSync(file, JSON.stringify(document))
  const { stdout } = await promisify(execFile)(process.execPath, [redocly, 'lint', file, '--format=json'], { cwd: directory }).catch(
    (failure: { stdout: string }) => failure,
  )
  return JSON.parse(stdout.slice(stdout.indexOf('{')))
}

interface DocumentedBody {
  content?: Record<string, { example?: unknown }>
}
interface DocumentedOperation {
  operationId: string
  security: unknown
  requestBody?: DocumentedBody
  responses: Record<string, DocumentedBody>
}

const openApi = () => JSON.parse(JSON.stringify(buildOpenApiDocument()))

t.test('the OpenAPI document has no finding under Redocly recommended rules', async (t) => {
  const report = await lint(openApi())
  t.same(report.problems, [])
  t.same(report.totals, { errors: 0, warnings: 0, ignored: 0 })
})

t.test('the linter does catch an example that drifted from its schema', async (t) => {
  const document = openApi()
  document.paths['/v1/status'].get.responses['200'].content['application/json'].example.status = 'sleepy'
  const report = await lint(document)
  t.same(
    report.problems.map((problem) => problem.ruleId),
    ['no-invalid-media-type-examples'],
  )
})

t.test('every operation is named for a client method, needs no credentials and shows an example of every body', async (t) => {
  const document = openApi()
  const operationIds: string[] = []
  for (const [path, item] of Object.entries(document.paths as Record<string, Record<string, DocumentedOperation>>)) {
    for (const [method, operation] of Object.entries(item)) {
      operationIds.push(operation.operationId)
      t.same(operation.security, [], `${method} ${path}: security []`)
      const bodies = [operation.requestBody, ...Object.values(operation.responses)].filter((part) => part?.content)
      for (const body of bodies) {
        t.ok(
          Object.values(body!.content!).every((media) => media.example !== undefined),
          `${method} ${path}: example`,
        )
      }
    }
  }
  t.same(operationIds.sort(), [
    'getAsyncApiDocument',
    'getDepth',
    'getMarketHours',
    'getOhlc',
    'getOnboarding',
    'getOpenApiDocument',
    'getPrice',
    'getQuote',
    'getStatus',
    'getUdfConfig',
    'getUdfHistory',
    'getUdfTime',
    'listLimits',
    'listOrders',
    'listPairs',
    'listPrices',
    'listTrades',
    'onboard',
    'openCandleStream',
    'openPriceStream',
    'querySubgraph',
    'querySubgraphAtMetadataBackendPath',
    'querySubgraphOfChain',
    'resolveUdfSymbol',
    'searchUdfSymbols',
  ])
  t.same(document.servers, [
    {
      url: '{base_url}',
      description: 'A deployment of the gateway',
      variables: {
        base_url: { default: 'http://localhost:8080', description: 'Scheme, host and port of the deployment, without a trailing slash' },
      },
    },
  ])
  t.same(document.components.schemas.PriceRow.properties.schedule.required, [
    'id',
    'alwaysOpen',
    'timezone',
    'openingHours',
    'dayTradingHours',
  ])
  t.same(
    document.components.schemas.PriceRow.properties.schedule.properties.openingHours.type,
    'array',
    'a string a weekday, as the connector types it',
  )
})

t.test('query parameters are documented as the numbers and enums they are parsed into', async (t) => {
  const parameter = (path: string, name: string) =>
    openApi().paths[path].get.parameters.find((candidate: { name: string }) => candidate.name === name).schema
  t.same(parameter('/v1/limits', 'chainId'), { type: 'integer', enum: [42161, 421614], default: 42161, description: 'Chain id' })
  t.same(parameter('/v1/orders', 'first'), { type: 'integer', minimum: 1, maximum: 1000, default: 100, description: 'Page size' })
  t.same(parameter('/v1/trades', 'skip'), { type: 'integer', minimum: 0, maximum: 5000, default: 0, description: 'Records to skip' })
  t.match(parameter('/v1/depth/{pair}/quote', 'notionalUsd'), { type: 'number', exclusiveMinimum: 0, maximum: 1e12 })
  t.same(parameter('/v1/depth/{pair}/quote', 'side'), { type: 'string', enum: ['long', 'short'] })
  const marketHoursPairs = parameter('/v1/market-hours', 'pair').enum
  t.equal(marketHoursPairs.length, 83 + 9, 'the symbols and the nine legacy spellings')
  t.strictSame(marketHoursPairs.slice(0, 2), ['BTC-USD', 'ETH-USD'])
  t.strictSame(marketHoursPairs.slice(83), [
    'HG-USD',
    'CL-USD',
    'SPX-USD',
    'DJI-USD',
    'NDX-USD',
    'NIK-JPY',
    'FTSE-GBP',
    'DAX-EUR',
    'HSI-HKD',
  ])
  t.match(parameter('/v1/market-hours', 'at'), { type: 'integer', minimum: 0, maximum: 253_402_300_799 })
})

t.test('every example parses with the zod schema the service uses', async (t) => {
  const cases: Array<[string, { safeParse(value: unknown): { success: boolean } }, unknown]> = [
    ['price row', PriceRow, examples.priceRowExample],
    ['snapshot', PriceSnapshot, examples.priceSnapshotExample],
    ['status', StatusRecord, examples.statusExample],
    ['market hours', MarketHoursResponse, examples.marketHoursExample],
    ['ohlc request', OhlcRequest, examples.ohlcRequestExample],
    ['ohlc response', OhlcResponse, examples.ohlcResponseExample],
    ['udf config', UdfConfig, examples.udfConfigExample],
    ['udf symbol info', UdfSymbolInfo, examples.udfSymbolInfoExample],
    ['udf search', UdfSearchResult, examples.udfSearchExample],
    ['udf history', UdfHistory, examples.udfHistoryExample],
    ...Object.entries(examples.udfErrorExamples).map(([status, example]): [string, typeof UdfError, unknown] => [
      `udf ${status}`,
      UdfError,
      example,
    ]),
    ['depth', DepthBook, examples.depthExample],
    ['quote', Quote, examples.quoteExample],
    ['pairs', PairsEnvelope, examples.pairsExample],
    ['limits', LimitsEnvelope, examples.limitsExample],
    ['trades', TradesEnvelope, examples.tradesExample],
    ['orders', OrdersEnvelope, examples.ordersExample],
    ['onboard request', OnboardRequest, examples.onboardRequestExample],
    ['onboard response', OnboardResponse, examples.onboardResponseExample],
    ['onboard pending', OnboardPending, examples.onboardPendingExample],
    ['onboard rejected', FrameworkError.extend({ details: OnboardRejection }), examples.onboardRejectedExample],
    ['no ticks yet', NoTicksYetError, examples.noTicksYetExample],
    ...Object.entries(examples.frameworkErrorExamples).map(
      ([status, body]) => [`framework ${status}`, FrameworkError, body] as [string, typeof FrameworkError, unknown],
    ),
    ...Object.entries(examples.upstreamProxyErrorExamples).map(
      ([status, body]) => [`upstream proxy ${status}`, UpstreamProxyError, body] as [string, typeof UpstreamProxyError, unknown],
    ),
  ]
  for (const [what, schema, example] of cases) t.ok(schema.safeParse(example).success, what)
})

t.test('the AsyncAPI document is valid AsyncAPI 3.0 with no error or warning from the parser', async (t) => {
  const names = busNames()
  const source = buildAsyncApiDocument(
    {
      tickSubject: names.tickSubject('{pair}'),
      numberedTickSubject: names.numberedTickSubject('{pair}'),
      latestPricesBucket: names.latestPricesBucket,
    },
    STREAM_LIMITS,
  )
  const { document, diagnostics } = await new Parser().parse(JSON.stringify(source))
  t.ok(document, 'parsed')
  // severity 0 is an error, 1 a warning; the only lower finding is the notice that AsyncAPI 3.1 exists
  t.same(
    diagnostics.map((diagnostic) => [diagnostic.severity, diagnostic.code]),
    [[2, 'asyncapi-latest-version']],
  )
  t.equal(document!.version(), '3.0.0')
  t.same(
    document!
      .channels()
      .all()
      .map((channel) => channel.address()),
    ['/v1/prices/stream', '/v1/candles/stream', 'prices.v1.tick.{pair}', 'prices.v1.numbered.{pair}', '$KV.prices.{pair}'],
  )
  t.same(
    document!
      .operations()
      .all()
      .map((operation) => [operation.id(), operation.action()]),
    [
      ['sendPriceFrames', 'send'],
      ['sendCandleFrames', 'send'],
      ['receiveFilterChange', 'receive'],
      ['publishTick', 'send'],
      ['republishTick', 'send'],
      ['storeLatestPrice', 'send'],
    ],
  )
  const stream = document!.channels().get('priceStream')!
  t.same(
    stream
      .messages()
      .all()
      .map((message) => message.name())
      .sort(),
    [
      'ack',
      'batch',
      'compactSnapshot',
      'compactSnapshotWithCursor',
      'compactTick',
      'compactTickWithCursor',
      'error',
      'filterChange',
      'gap',
      'gapWithCursor',
      'heartbeat',
      'heartbeatWithCursor',
      'resumed',
      'snapshot',
      'snapshotWithCursor',
      'static',
      'tick',
      'tickWithCursor',
    ],
  )
  t.same(stream.bindings().get('ws')?.value().query.properties.pairs.type, 'string')
  t.same(Object.keys(stream.bindings().get('ws')?.value().query.properties), [
    'pairs',
    'cursor',
    'from',
    'format',
    'replay',
    'heartbeat',
    'rate',
    'batch',
  ])
  t.equal(stream.bindings().get('http')?.value().method, 'GET', 'the Server-Sent Events binding')
  const candles = document!.channels().get('candleStream')!
  t.same(
    candles
      .messages()
      .all()
      .map((message) => message.name()),
    ['snapshot', 'candle', 'gap', 'heartbeat'],
  )
  t.same(Object.keys(candles.bindings().get('ws')?.value().query.properties), ['pairs', 'resolution', 'heartbeat'])
  t.equal(candles.bindings().get('http')?.value().method, 'GET', 'the Server-Sent Events binding')
})

t.test('the AsyncAPI parser reports a document that breaks the specification', async (t) => {
  const source = buildAsyncApiDocument(
    { tickSubject: 'prices.v1.tick.{pair}', numberedTickSubject: 'prices.v1.numbered.{pair}', latestPricesBucket: 'prices' },
    STREAM_LIMITS,
  )
  Object.assign(source.operations.publishTick, { action: 'publish' })
  const { document, diagnostics } = await new Parser().parse(JSON.stringify(source))
  t.equal(document, undefined)
  t.ok(
    diagnostics.some((diagnostic) => Number(diagnostic.severity) === 0),
    'an error',
  )
})

t.test("the GraphQL door: graph-node's body and answers, 429 with the budget headers, the limits from the door's defaults", async (t) => {
  const paths = openApi().paths as Record<
    string,
    Record<string, DocumentedOperation & { description: string; responses: Record<string, any> }>
  >
  for (const path of ['/v1/subgraph/gn', '/v1/subgraph/{chainId}/gn']) {
    const door = paths[path]!.post!
    t.same(Object.keys(door.responses).sort(), ['200', '400', '404', '413', '429', '502', '504'], `${path}: statuses`)
    t.same(Object.keys(door.responses['429'].headers).sort(), [
      'retry-after',
      'x-ratelimit-limit',
      'x-ratelimit-remaining',
      'x-ratelimit-reset',
      'x-request-id',
    ])
    t.same(Object.keys((door.requestBody as any).content['application/json'].schema.properties), ['query', 'variables', 'operationName'])
    for (const figure of [SUBGRAPH_DOOR_DEFAULTS.maxDepth, SUBGRAPH_DOOR_DEFAULTS.maxAliases, SUBGRAPH_DOOR_DEFAULTS.maxRows]) {
      t.match(door.description, String(figure), `${path}: names the limit ${figure}`)
    }
  }
})
