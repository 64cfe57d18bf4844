import t from 'tap'
import { indexerConfig } from '../config.ts'

t.test('defaults: no URLs (the embedded stand-in), 5 s timeout, 2 s cache', async (t) => {
  t.strictSame(indexerConfig({}), { urls: undefined, timeoutMs: 5000, cacheMs: 2000 })
})

t.test('one URL per chain, and the timings', async (t) => {
  const config = indexerConfig({
    INDEXER_URL_42161: 'https://indexer.example/subgraphs/one',
    INDEXER_URL_421614: 'https://indexer.example/subgraphs/sepolia',
    INDEXER_TIMEOUT_MS: '1500',
    INDEXER_CACHE_MS: '0',
  })
  t.strictSame(config, {
    urls: { 42161: 'https://indexer.example/subgraphs/one', 421614: 'https://indexer.example/subgraphs/sepolia' },
    timeoutMs: 1500,
    cacheMs: 0,
  })
})

t.test('wrong settings stop the start with a message naming them', async (t) => {
  t.throws(() => indexerConfig({ INDEXER_URL_42161: 'https://indexer.example/one' }), {
    code: 'config_invalid',
    message:
      'invalid configuration for indexer: INDEXER_URL_421614 is not set: set INDEXER_URL_42161 and INDEXER_URL_421614 together, or neither (embedded stand-in, npm start only)',
  })
  t.throws(() => indexerConfig({ INDEXER_URL_42161: 'not a url', INDEXER_URL_421614: 'https://indexer.example/two' }), {
    code: 'config_invalid',
    message: /^invalid configuration for indexer: INDEXER_URL_42161="not a url": /,
  })
  t.throws(() => indexerConfig({ INDEXER_TIMEOUT_MS: '0' }), { message: /INDEXER_TIMEOUT_MS="0": / })
  t.throws(() => indexerConfig({ INDEXER_CACHE_MS: 'soon' }), {
    message: 'invalid configuration for indexer: INDEXER_CACHE_MS="soon": must be a whole number',
  })
})
