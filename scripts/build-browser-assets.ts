// The pages' scripts, built before the service runs so that production needs neither esbuild nor the
// reference renderer's package: the board's script (services/pages/browser, bundled by esbuild) and the
// REST reference's renderer (the browser build from @scalar/api-reference's package).
// `npm run build` writes them into dist/; `npm start` and the test run (tap's `before`) into the source tree.
// Usage: tsx scripts/build-browser-assets.ts [outDir]
import { buildSync } from 'esbuild'
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { BROWSER_ASSETS_FOLDER } from '../services/pages/browser-assets.ts'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const PAGES = join(ROOT, 'services', 'pages')

/** Writes board.js and api-reference.js into outDir (the source tree's assets folder by default). */
export function buildBrowserAssets(outDir = join(PAGES, BROWSER_ASSETS_FOLDER)): void {
  mkdirSync(outDir, { recursive: true })
  const board = buildSync({
    entryPoints: [join(PAGES, 'browser', 'board.ts')],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    write: false,
    logLevel: 'silent',
  })
  writeAtomically(join(outDir, 'board.js'), board.outputFiles[0]!.contents)
  const reference = createRequire(import.meta.url).resolve('@scalar/api-reference/browser/standalone.js')
  writeAtomically(join(outDir, 'api-reference.js'), readFileSync(reference))
}

/** a running service may read the file meanwhile: it sees the old one or the new one, never half of one */
function writeAtomically(path: string, contents: Uint8Array): void {
  const partial = `${path}.${process.pid}.partial`
  writeFileSync(partial, contents)
  renameSync(partial, path)
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const outDir = process.argv[2]
  buildBrowserAssets(outDir ? resolve(outDir) : undefined)
}
