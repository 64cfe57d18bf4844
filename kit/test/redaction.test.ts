import { Writable } from 'node:stream'
import t from 'tap'
import { createRootLogger } from '../logger.ts'
import { createRedactor, maskUrl, secretsOfUrl } from '../redaction.ts'

t.test('URLs are logged with userinfo, key-like path segments and key-like query values masked', async (t) => {
  t.equal(maskUrl('redis://:p%40ss@10.0.0.5:6379/0'), 'redis://***@10.0.0.5:6379/0')
  t.equal(maskUrl('nats://alice:hunter22@nats-1:4222,nats://alice:hunter22@nats-2:4222'), 'nats://***@nats-1:4222,nats://***@nats-2:4222')
  t.equal(
    maskUrl('https://arb-mainnet.g.alchemy.com/v2/AbCdEf1234567890XyZ_abcdef12?apikey=k3y&chain=arb'),
    'https://arb-mainnet.g.alchemy.com/v2/***?apikey=***&chain=arb',
  )
  t.equal(maskUrl('https://indexer.example/subgraphs/name/venue-42161'), 'https://indexer.example/subgraphs/name/venue-42161')
})

t.test('secrets of a configured URL: password (or a lone user name), query values, key-like path segments', async (t) => {
  t.same(secretsOfUrl('https://user:pw-123456@host/api/0123456789abcdef0123456789abcdef/x?token=tok-987654'), [
    'pw-123456',
    'tok-987654',
    '0123456789abcdef0123456789abcdef',
  ])
  t.same(secretsOfUrl('https://TOKEN123456@host/'), ['TOKEN123456'])
  t.same(secretsOfUrl('not a url'), [])
})

t.test('the root logger masks registered secrets in every field, nested error messages and causes included', async (t) => {
  const lines: string[] = []
  const destination = new Writable({
    write(chunk, _encoding, done) {
      lines.push(chunk.toString())
      done()
    },
  })
  const logger = createRootLogger({ level: 'trace', secrets: ['sup3r-secret-value', 'pa"ss\\word'], destination })
  const cause = new Error('URL: https://rpc.example/v2/sup3r-secret-value\nRequest body: {}')
  const error = Object.assign(new Error('outer', { cause }), { shortMessage: 'sup3r-secret-value', metaMessages: ['pa"ss\\word'] })
  logger.trace({ err: error, nested: { deep: ['x sup3r-secret-value y'] }, url: 'http://u:pw-9@h/' }, 'failed sup3r-secret-value')
  t.equal(lines.length, 1)
  t.notMatch(lines[0], 'sup3r-secret-value')
  t.notMatch(lines[0], 'ss\\\\word')
  t.notMatch(lines[0], 'pw-9')
  const record = JSON.parse(lines[0]!)
  t.equal(record.msg, 'failed ***')
  t.equal(record.err.shortMessage, '***')
  t.same(record.nested, { deep: ['x *** y'] })
  t.equal(record.url, 'http://***@h/')
})

t.test('short values are not registered: they would mangle ordinary words', async (t) => {
  t.equal(createRedactor(['abc']).mask('abc abc'), 'abc abc')
})
