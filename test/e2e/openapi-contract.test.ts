// The OpenAPI document (valid 3.1, the committed client types generated from it) and a typed client calling every
// REST endpoint of a running service, each answer checked against the document: the compiled build's every role,
// on the file's development chain (DEPLOYMENT_FILE) and the GraphQL stand-in started here as its indexed source.
import t from 'tap'
import { Validator } from '@seriousme/openapi-schema-validator'
import { Ajv2020 } from 'ajv/dist/2020.js'
import createClient from 'openapi-fetch'
import { readFileSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { maxUint256 } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import type { paths } from '../../client/src/api-types.ts'
import { renderApiTypes } from '../../scripts/render-api-types.ts'
import { writeDeployment } from '../../deploy/devnet/devnet.ts'
import { buildOpenApiDocument } from '../../schemas/openapi.ts'
import { chainTimePlus, signOnboarding } from '../../loadtest/partner-signer.ts'
import { onboardingTools } from '../../services/onboarding/index.ts'
import { startIndexerStandin } from '../../standins/subgraph/index.ts'
import { devnetChain } from '../support/devnet-chain.ts'
import { waitFor } from '../support/wait.ts'
import { devnetForFile } from '../support/shared-devnet.ts'
import { indexedSourceAt, startServiceProcess } from '../support/service-process.ts'

const { onboardingJobId } = await onboardingTools()

const document = buildOpenApiDocument()
/** the document as clients download it */
const downloaded = JSON.parse(JSON.stringify(document)) as Record<string, unknown>

t.test('the document is valid OpenAPI 3.1, version 1.0.0, every path under /v1 but the metadata backend’s /graph', async (t) => {
  const result = await new Validator().validate(downloaded)
  t.same(result, { valid: true })
  t.equal(document.openapi, '3.1.0')
  t.equal(document.info.version, '1.0.0')
  t.ok(Object.keys(document.paths ?? {}).every((path) => path.startsWith('/v1/') || path === '/graph'))
})

t.test('the committed client types are what `npm run openapi:types` writes', async (t) => {
  const committed = readFileSync(new URL('../../client/src/api-types.ts', import.meta.url), 'utf8')
  t.ok(committed === (await renderApiTypes()), 'client/src/api-types.ts is current (run npm run openapi:types)')
})

t.test('a typed client calls every REST endpoint of a running service; each answer fits the document', async (t) => {
  const devnet = await devnetForFile(import.meta.url, { chainIds: [42161] })
  t.teardown(() => devnet.stop())
  const deploymentFile = join(mkdtempSync(join(tmpdir(), 'openapi-')), 'deployment.json')
  await writeDeployment(devnet, deploymentFile)
  const indexer = await startIndexerStandin()
  t.teardown(() => indexer.close())
  // every role, on the file's development chain and the GraphQL stand-in
  const service = startServiceProcess([], {
    PORT: '0',
    HOST: '127.0.0.1',
    DEPLOYMENT_FILE: deploymentFile,
    ...indexedSourceAt(indexer),
    ONBOARD_DEADLINE_MS: '30000',
  })
  t.teardown(() => service.stop())
  const baseUrl = `http://127.0.0.1:${Number((await service.waitForLog('edge listening')).port)}`

  const ajv = new Ajv2020({ strict: false, allErrors: true })
  ajv.addSchema(downloaded, 'openapi')
  const escape = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1')
  /** Checks status, x-request-id and body against the document's response for this operation. */
  const fits = (path: string, method: string, response: Response, body: unknown) => {
    const declared = (document.paths as Record<string, Record<string, { responses: Record<string, { content?: unknown }> }>>)[path]![
      method
    ]!.responses[String(response.status)]
    t.ok(declared, `${method.toUpperCase()} ${path} documents status ${response.status}`)
    t.match(response.headers.get('x-request-id'), /^[0-9a-f-]{36}$/, `${path}: x-request-id`)
    if (!declared?.content) return
    const pointer = `openapi#/paths/${escape(path)}/${method}/responses/${response.status}/content/${escape('application/json')}/schema`
    const validate = ajv.getSchema(pointer)!
    t.ok(validate(body), `${method.toUpperCase()} ${path} ${response.status} fits the document: ${ajv.errorsText(validate.errors)}`)
  }

  const client = createClient<paths>({ baseUrl })
  const trader = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'

  const prices = await waitFor(
    async () => {
      const answer = await client.GET('/v1/prices')
      return answer.response.status === 200 ? answer : undefined
    },
    { timeoutMs: 10_000, what: 'the first snapshot' },
  )
  fits('/v1/prices', 'get', prices.response, prices.data)

  const calls = [
    ['/v1/prices/{pair}', 'get', await client.GET('/v1/prices/{pair}', { params: { path: { pair: 'ETH-USD' } } })],
    ['/v1/prices/{pair}', 'get', await client.GET('/v1/prices/{pair}', { params: { path: { pair: 'NOPE-USD' } } })],
    ['/v1/status', 'get', await client.GET('/v1/status')],
    [
      '/v1/market-hours',
      'get',
      await client.GET('/v1/market-hours', { params: { query: { pair: 'NVDA-USD', at: Date.UTC(2026, 10, 27, 17) / 1000 } } }),
    ],
    [
      '/v1/ohlc',
      'post',
      await client.POST('/v1/ohlc', {
        body: { pair: 'BTC-USD', fromTimestampSeconds: 0, toTimestampSeconds: 4_000_000_000, resolution: '1' },
      }),
    ],
    [
      '/v1/ohlc',
      'post',
      await client.POST('/v1/ohlc', {
        body: { pair: 'BTC-USD', fromTimestampSeconds: 10, toTimestampSeconds: 5, resolution: '7' } as never,
      }),
    ],
    ['/v1/pairs', 'get', await client.GET('/v1/pairs', { params: { query: { chainId: 421614 } } })],
    ['/v1/limits', 'get', await client.GET('/v1/limits', { params: { query: { trader, first: 5 } } })],
    ['/v1/limits', 'get', await client.GET('/v1/limits', { params: { query: { trader, first: 5000 } } })],
    ['/v1/trades', 'get', await client.GET('/v1/trades', { params: { query: { trader } } })],
    ['/v1/orders', 'get', await client.GET('/v1/orders', { params: { query: { trader, first: 3 } } })],
    ['/v1/depth/{pair}', 'get', await client.GET('/v1/depth/{pair}', { params: { path: { pair: 'BTC-USD' } } })],
    ['/v1/depth/{pair}', 'get', await client.GET('/v1/depth/{pair}', { params: { path: { pair: 'USD-KRW' } } })],
    [
      '/v1/depth/{pair}/quote',
      'get',
      await client.GET('/v1/depth/{pair}/quote', { params: { path: { pair: 'USD-KRW' }, query: { side: 'short', notionalUsd: 25000 } } }),
    ],
    ['/v1/openapi.json', 'get', await client.GET('/v1/openapi.json')],
    ['/v1/asyncapi.json', 'get', await client.GET('/v1/asyncapi.json')],
    ['/v1/udf/config', 'get', await client.GET('/v1/udf/config')],
    ['/v1/udf/symbols', 'get', await client.GET('/v1/udf/symbols', { params: { query: { symbol: 'SPX-USD' } } })],
    ['/v1/udf/symbols', 'get', await client.GET('/v1/udf/symbols', { params: { query: { symbol: 'NOPE-USD' } } })],
    ['/v1/udf/search', 'get', await client.GET('/v1/udf/search', { params: { query: { query: 'eth', limit: 5 } } })],
    [
      '/v1/udf/history',
      'get',
      await client.GET('/v1/udf/history', { params: { query: { symbol: 'BTC-USD', resolution: '1', from: 0, to: 4_000_000_000 } } }),
    ],
    [
      '/v1/udf/history',
      'get',
      await client.GET('/v1/udf/history', { params: { query: { symbol: 'BTC-USD', resolution: '7', from: 1, to: 2 } as never } }),
    ],
  ] as const
  for (const [path, method, answer] of calls) fits(path, method, answer.response, answer.data ?? answer.error)
  t.same(calls[1][2].response.status, 404)
  t.same(calls[5][2].response.status, 400)
  t.same(calls[8][2].response.status, 400)
  t.same(calls[12][2].response.status, 503)
  t.same(
    calls.slice(-6).map(([, , answer]) => answer.response.status),
    [200, 200, 404, 200, 200, 400],
    'the UDF routes: config, a legacy spelling resolved, an unknown symbol, search, bars, a bad resolution',
  )

  // a real onboarding: the demo partner signs, the relay confirms on the development chain
  const chain = devnet.chain(42161)
  const handle = devnetChain(chain)
  t.teardown(handle.close)
  const expiry = await chainTimePlus(handle.publicClient, 1800)
  const body = await signOnboarding({
    chain,
    client: handle.publicClient,
    signer: privateKeyToAccount(devnet.demoPartner.privateKey),
    delegation: { expiry },
    permit: { value: maxUint256, deadline: expiry },
  })
  const onboard = await client.POST('/v1/onboard', { body })
  fits('/v1/onboard', 'post', onboard.response, onboard.data)
  t.equal(onboard.data?.status, 'confirmed')
  const outcome = await client.GET('/v1/onboard/{id}', { params: { path: { id: onboardingJobId(body) } } })
  fits('/v1/onboard/{id}', 'get', outcome.response, outcome.data)
  t.same(outcome.data, onboard.data, 'the stored outcome is the one the POST answered')
})
