// Regenerates client/src/api-types.ts, the TypeScript types of the REST API, from the OpenAPI document:
//   npm run openapi:types
// A test fails when the committed file differs from what this writes.
import { writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { renderApiTypes } from './render-api-types.ts'

const target = fileURLToPath(new URL('../client/src/api-types.ts', import.meta.url))
writeFileSync(target, await renderApiTypes())
console.log(`written ${target}`)
