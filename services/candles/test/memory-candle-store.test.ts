import t from 'tap'
import { memoryCandleStore } from '../memory-candle-store.ts'
import { candleStoreContract } from './candle-store-contract.ts'

candleStoreContract(t, async ({ keepPerResolution }) => ({ store: memoryCandleStore({ keepPerResolution }), close: async () => {} }))
