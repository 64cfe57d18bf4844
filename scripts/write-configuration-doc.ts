// Rewrites the generated sections of the docs (the configuration table, the rate-limit budgets):
//   npm run docs:config
// A test fails when the committed docs differ from what this writes.
import { readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { fillSection, GENERATED_SECTIONS } from './render-configuration-doc.ts'

for (const { file, section, render } of GENERATED_SECTIONS) {
  const path = fileURLToPath(new URL(`../${file}`, import.meta.url))
  writeFileSync(path, fillSection(readFileSync(path, 'utf8'), section, render()))
  console.log(`written ${section} in ${file}`)
}
