// Production entry point: `node dist/services/main.js [roles]` after `npm run build`. Every outside system is configuration.
import { serve } from './serve.ts'

await serve()
