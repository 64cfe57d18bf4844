// The production code as a few files instead of some five hundred: esbuild bundles the service's entry points
// with the packages they load into dist/, split into chunks at the dynamic imports, so that a start reads,
// compiles and links a handful of modules before its first price (each module costs Node's loader its own
// resolution, read and link, more than its size would say). What `npm run build` emits once tsc has checked
// the types.
import { readFileSync } from 'node:fs'
import { dirname, join, relative, sep } from 'node:path'
import { build, type Metafile, type Plugin } from 'esbuild'

/** the modules others run: the production entry, `npm start`'s (scripts/start.mjs), the image's runtime probe */
const ENTRY_POINTS = ['services/main.ts', 'services/serve.ts', 'services/http/native-uws.ts']
/** chunks sit one folder below the output root, as the entry points in services/ do (see besideItsSource) */
const CHUNK_NAMES = 'chunks/[name]-[hash]'

/**
 * Packages left to node_modules: the native uWebSockets.js builds, and packages that find their own files at
 * run time through `__dirname` (pino's worker threads, ioredis's error stacks, bullmq's child processes, ws's
 * optional native helpers), which a bundle does not have.
 */
const EXTERNAL_PACKAGES = ['uWebSockets.js', '@btc-vision/uwebsockets.js', 'pino', 'ioredis', 'bullmq', 'ws']

/**
 * A module of ours that reads a file beside it (`new URL('./x.lua', import.meta.url)`, copied into dist/ at its
 * place by the build) keeps finding it once bundled: its `import.meta.url` is rewritten to the URL its own
 * compiled file would have, relative to the output it lands in. Every output lies one folder below the output
 * root, which bundleService checks. Each module rewritten is added to `rewritten`, by its path under sourceRoot
 * as esbuild's metafile names it.
 */
function besideItsSource(sourceRoot: string, rewritten: Set<string>): Plugin {
  return {
    name: 'beside-its-source',
    setup(esbuild) {
      esbuild.onLoad({ filter: /\.ts$/ }, (args) => {
        if (args.path.includes(`${sep}node_modules${sep}`)) return undefined
        const source = readFileSync(args.path, 'utf8')
        if (!source.includes('import.meta.url')) return undefined
        const sourcePath = relative(sourceRoot, args.path).split(sep).join('/')
        rewritten.add(sourcePath)
        const compiledPath = sourcePath.replace(/\.ts$/, '.js')
        const ownUrl = `new URL(${JSON.stringify(`../${compiledPath}`)}, import.meta.url).href`
        return { contents: source.replaceAll('import.meta.url', ownUrl), loader: 'ts' }
      })
    },
  }
}

/** Bundles the entry points under sourceRoot into outRoot (entry points at their places, chunks in chunks/). */
export async function bundleService(options: { sourceRoot: string; outRoot: string }): Promise<void> {
  const rewritten = new Set<string>()
  const result = await build({
    absWorkingDir: options.sourceRoot,
    entryPoints: ENTRY_POINTS,
    outbase: options.sourceRoot,
    outdir: options.outRoot,
    chunkNames: CHUNK_NAMES,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    external: EXTERNAL_PACKAGES,
    // the CommonJS packages inside the bundle require Node's built-in modules
    banner: {
      js: "import { createRequire as createRequireForBundle } from 'node:module'; const require = createRequireForBundle(import.meta.url);",
    },
    plugins: [besideItsSource(options.sourceRoot, rewritten)],
    sourcemap: 'linked',
    metafile: true,
    logLevel: 'error',
  })
  checkOutputDepth(result.metafile, rewritten, options)
}

/** Fails the build when a rewritten module landed in an output whose folder depth the rewrite did not assume. */
function checkOutputDepth(
  metafile: Metafile,
  rewritten: Set<string>,
  { sourceRoot, outRoot }: { sourceRoot: string; outRoot: string },
): void {
  // the metafile's paths are relative to the working directory, sourceRoot
  for (const [output, { inputs }] of Object.entries(metafile.outputs)) {
    if (!output.endsWith('.js')) continue
    const depth = relative(outRoot, dirname(join(sourceRoot, output))).split(sep).length
    if (depth === 1) continue
    const readers = Object.keys(inputs).filter((input) => rewritten.has(input))
    if (readers.length > 0)
      throw new Error(`${output} holds ${readers.join(', ')}, which read import.meta.url, two folders or more below the output root`)
  }
}
