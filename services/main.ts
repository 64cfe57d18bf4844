// Production entry point: `node services/main.js [roles]`. Every outside system is configuration.
import { serve } from './serve.ts'

await serve()
