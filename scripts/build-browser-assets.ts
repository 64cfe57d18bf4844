// The pages' scripts, built before the service runs so that production needs neither esbuild nor the
// reference renderer's package: the board's and the pair view's scripts (services/pages/browser, bundled by
// esbuild; the pair view with uPlot, whose stylesheet is copied beside it) and the REST reference's renderer
// (the browser build from @scalar/api-reference's package).
// `npm run build` writes them into dist/; `npm start` and the test run (tap's `before`) into the source tree.
// Usage: npm run build:assets [-- outDir]
import { buildSync } from 'esbuild'
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseCommandLine } from '../kit/command-line.ts'
import { BROWSER_ASSETS_FOLDER } from '../services/pages/browser-assets.ts'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const PAGES = join(ROOT, 'services', 'pages')

/** Writes board.js, pair.js, uplot.css and api-reference.js into outDir (the source tree's assets folder by default). */
export function buildBrowserAssets(outDir = join(PAGES, BROWSER_ASSETS_FOLDER)): void {
  mkdirSync(outDir, { recursive: true })
  for (const [script, output] of [
    ['board.ts', 'board.js'],
    ['pair-chart.ts', 'pair.js'],
  ]) {
    const bundle = buildSync({
      entryPoints: [join(PAGES, 'browser', script!)],
      bundle: true,
      format: 'esm',
      platform: 'browser',
      target: 'es2022',
      minify: true,
      write: false,
      logLevel: 'silent',
    })
    writeAtomically(join(outDir, output!), bundle.outputFiles[0]!.contents)
  }
  const require = createRequire(import.meta.url)
  writeAtomically(join(outDir, 'uplot.css'), readFileSync(require.resolve('uplot/dist/uPlot.min.css')))
  const reference = require.resolve('@scalar/api-reference/browser/standalone.js')
  writeAtomically(join(outDir, 'api-reference.js'), readFileSync(reference))
}

/** a running service may read the file meanwhile: it sees the old one or the new one, never half of one */
function writeAtomically(path: string, contents: Uint8Array): void {
  const partial = `${path}.${process.pid}.partial`
  writeFileSync(partial, contents)
  renameSync(partial, path)
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const command = parseCommandLine({
    usage: 'npm run build:assets -- [outDir]',
    summary:
      "Builds the pages' scripts (the board's, bundled by esbuild, and the REST reference's renderer) into outDir\n(the source tree's assets folder by default).",
    maxPositionals: 1,
    options: {},
  })
  const outDir = command.positionals[0]
  buildBrowserAssets(outDir ? resolve(outDir) : undefined)
}
