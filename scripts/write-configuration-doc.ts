// Rewrites the generated sections of the docs (the configuration table, the rate-limit budgets):
//   npm run docs:config
// A test fails when the committed docs differ from what this writes.
import { readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { parseCommandLine } from '../kit/command-line.ts'
import { fillSection, GENERATED_SECTIONS } from './render-configuration-doc.ts'

parseCommandLine({
  usage: 'npm run docs:config',
  summary: "Rewrites the docs' generated sections: the configuration table and the rate-limit budgets.",
  options: {},
})
for (const { file, section, render } of GENERATED_SECTIONS) {
  const path = fileURLToPath(new URL(`../${file}`, import.meta.url))
  writeFileSync(path, fillSection(readFileSync(path, 'utf8'), section, render()))
  console.log(`written ${section} in ${file}`)
}
