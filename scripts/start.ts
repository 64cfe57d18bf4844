// `npm start`: the embedded default. Like services/main.ts, plus the development stand-ins the product never
// imports: development chains (deploy/devnet) when onboarding has no chain configured, and the GraphQL
// stand-in (standins/subgraph) when no INDEXER_URL_* is set; both loaded after the prices are up.
import type { Logger } from '../kit/logger.ts'
import { serve } from '../services/serve.ts'
import { buildBrowserAssets } from './build-browser-assets.ts'

// the pages' scripts from the source as it is now (`npm run build` puts them into dist/ for production)
buildBrowserAssets()

await serve({
  startEmbeddedChains: async (logger: Logger) => (await import('../deploy/devnet/embedded.ts')).startEmbeddedChains(logger),
  startEmbeddedIndexer: async () => (await import('../standins/subgraph/embedded.ts')).startEmbeddedIndexer(),
})
