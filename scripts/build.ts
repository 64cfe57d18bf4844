// `npm run build`: compiles the production code (tsconfig.build.json) to JavaScript in dist/, copies
// the files it reads at run time beside it and builds the pages' scripts (scripts/build-browser-assets.ts). Usage: tsx scripts/build.ts [outDir] [--noCheck]
import { execFileSync } from 'node:child_process'
import { copyFileSync, mkdirSync, readdirSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, extname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { BROWSER_ASSETS_FOLDER } from '../services/pages/browser-assets.ts'
import { buildBrowserAssets } from './build-browser-assets.ts'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
/** the production source trees, as in tsconfig.build.json */
const SOURCE_DIRS = ['schemas', 'kit', 'bus', 'services']
/** what is not needed at run time: compiled sources and documentation */
const NOT_ASSETS = new Set(['.ts', '.md'])

export interface BuildOptions {
  outDir?: string
  /** emit without type checking (`npm test` type-checks the whole tree first) */
  noCheck?: boolean
}

/** Builds into outDir (default dist/), replacing what was there; returns its absolute path. */
export function build(options: BuildOptions = {}): string {
  const outDir = resolve(ROOT, options.outDir ?? 'dist')
  rmSync(outDir, { recursive: true, force: true })
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc')
  const args = [tsc, '-p', join(ROOT, 'tsconfig.build.json'), '--outDir', outDir, ...(options.noCheck ? ['--noCheck'] : [])]
  execFileSync(process.execPath, args, { cwd: ROOT, stdio: 'inherit' })
  for (const dir of SOURCE_DIRS) copyAssets(join(ROOT, dir), outDir)
  buildBrowserAssets(join(outDir, 'services', 'pages', BROWSER_ASSETS_FOLDER))
  return outDir
}

function copyAssets(dir: string, outDir: string): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) {
      if (entry.name !== 'test') copyAssets(path, outDir)
    } else if (!NOT_ASSETS.has(extname(entry.name))) {
      const target = join(outDir, relative(ROOT, path))
      mkdirSync(dirname(target), { recursive: true })
      copyFileSync(path, target)
    }
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2)
  const outDir = build({ outDir: args.find((arg) => !arg.startsWith('--')), noCheck: args.includes('--noCheck') })
  console.log(`built ${relative(process.cwd(), outDir) || '.'}`)
}
