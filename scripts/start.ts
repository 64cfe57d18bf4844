// `npm start`: the embedded default. Like services/main.ts, and when onboarding has no chain configured it
// starts development chains (deploy/devnet) in this process, loaded after the prices are up.
import type { Logger } from '../kit/logger.ts'
import { serve } from '../services/serve.ts'

await serve({
  startEmbeddedChains: async (logger: Logger) => (await import('../deploy/devnet/embedded.ts')).startEmbeddedChains(logger),
})
