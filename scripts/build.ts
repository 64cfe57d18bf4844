// `npm run build`: checks the production code's types (tsc over tsconfig.build.json), bundles it with the packages
// it loads into a few files in dist/ (scripts/bundle.ts), copies the files it reads at run time beside it and builds the
// pages' scripts (scripts/build-browser-assets.ts), then records a digest of what it was built from
// (scripts/build-inputs.mjs), so that `npm start` and the test run can tell whether dist/ is current.
// Usage: npm run build [-- outDir --noCheck]
import { execFileSync } from 'node:child_process'
import { copyFileSync, mkdirSync, readdirSync, rmSync } from 'node:fs'
import { dirname, extname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseCommandLine } from '../kit/command-line.ts'
import { BROWSER_ASSETS_FOLDER } from '../services/pages/browser-assets.ts'
import { buildBrowserAssets } from './build-browser-assets.ts'
import { bundleService } from './bundle.ts'
import { inputsDigest, isBuildCurrent as recordSaysCurrent, SOURCE_DIRS, writeBuildRecord } from './build-inputs.mjs'
import { TYPE_CHECKER } from './type-checker.ts'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const DIST = join(ROOT, 'dist')
/** what is not needed at run time: compiled sources and documentation */
const NOT_ASSETS = new Set(['.ts', '.md'])
/** not server code: the browser's scripts are bundled into the pages' assets instead */
const BROWSER_SOURCES = join(ROOT, 'services', 'pages', 'browser')

export interface BuildOptions {
  outDir?: string
  /** emit without type checking */
  noCheck?: boolean
}

/** Builds into outDir (default dist/), replacing what was there; returns its absolute path. */
export async function build(options: BuildOptions = {}): Promise<string> {
  const outDir = resolve(ROOT, options.outDir ?? 'dist')
  // taken before reading the sources, so that a change made during the build leaves the build stale
  const inputs = inputsDigest(ROOT)
  if (!options.noCheck) {
    execFileSync(process.execPath, [TYPE_CHECKER, '--noEmit', '-p', join(ROOT, 'tsconfig.build.json')], { cwd: ROOT, stdio: 'inherit' })
  }
  rmSync(outDir, { recursive: true, force: true })
  const sources = SOURCE_DIRS.flatMap((dir) => productionFiles(join(ROOT, dir)))
  await bundleService({ sourceRoot: ROOT, outRoot: outDir })
  for (const file of sources.filter((file) => !NOT_ASSETS.has(extname(file)))) {
    const target = join(outDir, relative(ROOT, file))
    mkdirSync(dirname(target), { recursive: true })
    copyFileSync(file, target)
  }
  buildBrowserAssets(join(outDir, 'services', 'pages', BROWSER_ASSETS_FOLDER))
  writeBuildRecord(outDir, { inputs, checked: !options.noCheck })
  return outDir
}

/** Whether dist/ holds a build of the sources as they are now, type-checked unless `checked` is false. */
export function isBuildCurrent(options: { checked: boolean } = { checked: true }): boolean {
  return recordSaysCurrent(ROOT, DIST, options)
}

function productionFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory())
      return entry.name === 'test' || entry.name === BROWSER_ASSETS_FOLDER || path === BROWSER_SOURCES ? [] : productionFiles(path)
    return [path]
  })
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const command = parseCommandLine({
    usage: 'npm run build -- [outDir] [options]',
    summary:
      "Checks the production code's types (tsconfig.build.json) and compiles it into outDir (dist/ by default, replaced),\n" +
      "with the files it reads at run time and the pages' scripts: what `node dist/services/main.js` runs.",
    maxPositionals: 1,
    options: { noCheck: { type: 'boolean', default: false, description: 'emit without type checking' } },
  })
  const outDir = await build({ outDir: command.positionals[0], noCheck: command.values.noCheck })
  console.log(`built ${relative(process.cwd(), outDir) || '.'}`)
}
