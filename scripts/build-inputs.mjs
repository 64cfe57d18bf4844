// What a build of the production code is made from, and the record a build leaves beside its output: a digest
// of its inputs and whether its type check ran. Plain JavaScript, so that `npm start` (scripts/start.mjs) can
// tell whether dist/ is current before anything loads TypeScript; scripts/build.ts writes the record.
import { createHash } from 'node:crypto'
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { extname, join, relative } from 'node:path'

/** the production source trees, as in tsconfig.build.json */
export const SOURCE_DIRS = ['schemas', 'kit', 'bus', 'services']
/** besides the source trees, what the build's output depends on: settings, packages, and how it is bundled */
const BUILD_SETTINGS = ['tsconfig.json', 'tsconfig.build.json', 'package-lock.json', 'scripts/bundle.ts']
const RECORD = '.build-inputs'
/** folders of the source trees that hold no input: tests, and the pages' scripts built into the source tree (services/pages/assets) */
const NOT_INPUTS = new Set(['test', 'assets'])

/** A digest of every file the build reads: the production sources (tests and docs excluded) and the settings. */
export function inputsDigest(root) {
  const hash = createHash('sha256')
  const files = [...SOURCE_DIRS.flatMap((dir) => inputFiles(join(root, dir))), ...BUILD_SETTINGS.map((file) => join(root, file))]
  for (const file of files.sort()) hash.update(relative(root, file)).update('\0').update(readFileSync(file)).update('\0')
  return hash.digest('hex')
}

function inputFiles(dir) {
  const entries = readdirSync(dir, { withFileTypes: true })
  const names = new Set(entries.map((entry) => entry.name))
  return entries.flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return NOT_INPUTS.has(entry.name) ? [] : inputFiles(path)
    // docs are not built; a module's compiled sibling (the test tree's, test/test-tree.ts) is output, not input
    const compiledSibling = entry.name.endsWith('.js') && names.has(`${entry.name.slice(0, -3)}.ts`)
    return extname(entry.name) === '.md' || compiledSibling ? [] : [path]
  })
}

export function writeBuildRecord(outDir, record) {
  writeFileSync(join(outDir, RECORD), JSON.stringify(record))
}

/** Whether outDir holds a build of root's sources as they are now (with its type check, when `checked`). */
export function isBuildCurrent(root, outDir, { checked }) {
  const file = join(outDir, RECORD)
  if (!existsSync(file)) return false
  const record = JSON.parse(readFileSync(file, 'utf8'))
  return (record.checked || !checked) && record.inputs === inputsDigest(root)
}
