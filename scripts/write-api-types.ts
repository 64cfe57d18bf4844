// Regenerates client/src/api-types.ts, the TypeScript types of the REST API, from the OpenAPI document:
//   npm run openapi:types
// A test fails when the committed file differs from what this writes.
import { writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { parseCommandLine } from '../kit/command-line.ts'

parseCommandLine({
  usage: 'npm run openapi:types',
  summary: 'Writes client/src/api-types.ts, the TypeScript types of the REST API, from the OpenAPI document.',
  options: {},
})
// the document's generator is loaded only for a run, not for --help
const { renderApiTypes } = await import('./render-api-types.ts')
const target = fileURLToPath(new URL('../client/src/api-types.ts', import.meta.url))
writeFileSync(target, await renderApiTypes())
console.log(`written ${target}`)
