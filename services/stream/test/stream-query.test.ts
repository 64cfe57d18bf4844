import t from 'tap'
import { pairByName } from '../../../schemas/pairs.ts'
import { parseStreamQuery } from '../stream-query.ts'

const ids = (...names: string[]) => new Set(names.map((name) => pairByName(name)!.id))

t.test('the plain spellings and the ones URLSearchParams decodes give the same filter', async (t) => {
  t.same(parseStreamQuery(''), { ok: true, filter: null }, 'no query: every pair')
  const cases: Array<[string, Set<number>]> = [
    ['pairs=BTC-USD,ETH-USD', ids('BTC-USD', 'ETH-USD')],
    ['pairs=BTC%2DUSD,ETH-USD', ids('BTC-USD', 'ETH-USD')],
    ['pairs=BTC-USD%2CETH-USD', ids('BTC-USD', 'ETH-USD')],
    ['pairs=US500-USD,SPX-USD', ids('US500-USD')],
    ['pairs=BTC-USD,BTC-USD', ids('BTC-USD')],
  ]
  for (const [query, filter] of cases) t.same(parseStreamQuery(query), { ok: true, filter }, query)
})

t.test('what the schema refuses is refused the same way, whichever path read it', async (t) => {
  const refusals: Array<[string, string, Array<string | number>]> = [
    ['pairs=BTC-USD,DOGE-USD', 'custom', ['pairs', 1]],
    ['pairs=BTC%2DUSD,DOGE-USD', 'custom', ['pairs', 1]],
    ['pairs=', 'custom', ['pairs', 0]],
    ['pairs=BTC-USD+', 'custom', ['pairs', 0]],
    ['pairs=BTC-USD&pairs=ETH-USD', 'invalid_type', ['pairs']],
    ['pairs=BTC-USD&depth=1', 'unrecognized_keys', []],
  ]
  for (const [query, code, path] of refusals) {
    const parsed = parseStreamQuery(query)
    t.same(parsed.ok ? undefined : [parsed.issues[0]!.code, parsed.issues[0]!.path], [code, path], query)
  }
})

t.test('format and replay: compact frames and the folded resume are opted into, the defaults change nothing', async (t) => {
  const btc = ids('BTC-USD')
  const cases: Array<[string, object]> = [
    ['pairs=BTC-USD&format=full&replay=all', { ok: true, filter: btc }],
    ['pairs=BTC-USD&format=compact', { ok: true, filter: btc, compact: true }],
    ['format=compact&cursor=true', { ok: true, filter: null, withCursor: true, compact: true }],
    [
      'from=abc-1&replay=latest',
      { ok: true, filter: null, withCursor: true, resumeAfter: { epoch: 'abc', position: 1 }, foldReplay: true },
    ],
  ]
  for (const [query, parsed] of cases) t.same(parseStreamQuery(query), parsed, query)
})

t.test('heartbeat and rate: seconds as milliseconds, a fixed rate named, real_time the same as none', async (t) => {
  t.same(parseStreamQuery('heartbeat=1'), { ok: true, filter: null, heartbeatMs: 1000 })
  t.same(parseStreamQuery('heartbeat=60&rate=fixed_rate@200ms'), { ok: true, filter: null, heartbeatMs: 60_000, rate: 'fixed_rate@200ms' })
  t.same(parseStreamQuery('rate=real_time'), { ok: true, filter: null })
  t.same(parseStreamQuery('pairs=BTC-USD&rate=fixed_rate@50ms'), { ok: true, filter: ids('BTC-USD'), rate: 'fixed_rate@50ms' })
})

t.test('every opt-in together', async (t) => {
  t.same(parseStreamQuery('pairs=BTC-USD&format=compact&from=abc-1&replay=latest&heartbeat=5&rate=fixed_rate@1000ms'), {
    ok: true,
    filter: ids('BTC-USD'),
    withCursor: true,
    resumeAfter: { epoch: 'abc', position: 1 },
    compact: true,
    foldReplay: true,
    heartbeatMs: 5000,
    rate: 'fixed_rate@1000ms',
  })
  const refused = parseStreamQuery('format=compact&rate=fixed_rate@200ms&heartbeat=5&heartbeat=6')
  t.same(refused.ok ? undefined : refused.issues.map((issue) => issue.path), [['heartbeat']], 'one of them twice: refused, naming it')
})
