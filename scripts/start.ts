// `npm start`: the embedded default. Like services/main.ts, and when onboarding has no chain configured it
// starts development chains (deploy/devnet) in this process.
import { startEmbeddedChains } from '../deploy/devnet/embedded.ts'
import { serve } from '../services/serve.ts'

await serve({ startEmbeddedChains })
