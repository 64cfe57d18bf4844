// The pair list as the indexed source stores it: legacy spellings, the untradeable pair 53, units.

import t from 'tap'
import { PAIRS } from '../../../schemas/pairs.ts'
import { FEED_IDS } from '../../../services/ingestor/feed-ids.ts'
import { queryData, startStandin } from './fixtures/standin-client.ts'

type WirePair = {
  id: string
  from: string
  to: string
  feed: string
  maxOI: string
  longOI: string
  shortOI: string
  maxLeverage: string
  group: { name: string }
}

t.test('pairs', async (t) => {
  const standin = await startStandin(t)
  for (const chainId of [42161, 421614] as const) {
    const { pairs } = await queryData<{ pairs: WirePair[] }>(
      standin.url(chainId),
      '{ pairs(first: 1000) { id from to feed maxOI longOI shortOI maxLeverage group { name } } }',
    )
    const byId = new Map(pairs.map((pair) => [pair.id, pair]))

    t.test(`chain ${chainId}: legacy base spellings where the source kept them`, async (t) => {
      // the nine legacy bases of schemas/pairs.ts (the venue's pairs list, its C# connector's rename table)
      const legacy = [6, 7, 10, 11, 12, 13, 14, 15, 30]
      t.strictSame(
        legacy.map((id) => `${byId.get(String(id))?.from}-${byId.get(String(id))?.to}`),
        ['HG-USD', 'CL-USD', 'SPX-USD', 'DJI-USD', 'NDX-USD', 'NIK-JPY', 'FTSE-GBP', 'DAX-EUR', 'HSI-HKD'],
      )
      const renamed = PAIRS.filter((pair) => byId.get(String(pair.id))?.from !== pair.base).map((pair) => pair.id)
      t.strictSame(renamed, legacy, 'every other pair keeps the symbol of schemas/pairs.ts')
      t.strictSame(
        PAIRS.map((pair) => byId.get(String(pair.id))?.to),
        PAIRS.map((pair) => pair.quote),
      )
    })

    t.test(`chain ${chainId}: pair 53 has no open-interest ceiling, every other pair has one`, async (t) => {
      t.strictSame(byId.get('53'), { ...byId.get('53'), from: 'USD', to: 'KRW', maxOI: '0', longOI: '0', shortOI: '0' })
      t.strictSame(
        pairs.filter((pair) => BigInt(pair.maxOI) === 0n).map((pair) => pair.id),
        ['53'],
      )
    })

    t.test(`chain ${chainId}: feeds, groups and leverage units`, async (t) => {
      t.equal(pairs.length, 83)
      t.strictSame(
        PAIRS.map((pair) => byId.get(String(pair.id))?.feed),
        PAIRS.map((pair) => FEED_IDS.find((entry) => entry.pair === pair.symbol)?.feedId),
        'each pair carries the feed id of its price rows',
      )
      t.equal(byId.get('0')?.feed, '0xe62df6c8b4a85fe1a67db44dc12de5db330f7ac66b72dc658afedf0f4a415b43', "BTC-USD: Pyth's BTC/USD id")
      t.strictSame([byId.get('0')?.group.name, byId.get('0')?.maxLeverage], ['crypto', '5000'], '50x is stored as 5000')
      t.strictSame([byId.get('2')?.group.name, byId.get('18')?.group.name], ['forex', 'stocks'])
    })
  }
})
