// TypeScript to JavaScript file by file, as `isolatedModules` and `verbatimModuleSyntax` allow (no type
// information needed), with every relative `.ts` import rewritten to `.js`: what the test run executes (its
// tree, test/test-tree.ts). esbuild does it in a fraction of a second where tsc's emit takes several.
import { build, type Plugin } from 'esbuild'

/** Keeps every import as it is, but for the extension of relative ones: each output file is its input alone. */
const TS_IMPORTS_TO_JS: Plugin = {
  name: 'ts-imports-to-js',
  setup(esbuild) {
    esbuild.onResolve({ filter: /.*/ }, (args) =>
      args.kind === 'entry-point'
        ? undefined
        : { path: args.path.startsWith('.') ? args.path.replace(/\.ts$/, '.js') : args.path, external: true },
    )
  },
}

/** Writes `<file>.js` (and its source map) for each file, under outRoot at its place under sourceRoot. */
export async function transpile(
  files: string[],
  options: { sourceRoot: string; outRoot: string; sourcemap: 'linked' | 'inline' },
): Promise<void> {
  await build({
    entryPoints: files,
    outbase: options.sourceRoot,
    outdir: options.outRoot,
    // "bundling" with every import external: each file is transpiled alone and its imports resolved by the plugin
    bundle: true,
    plugins: [TS_IMPORTS_TO_JS],
    format: 'esm',
    platform: 'node',
    target: 'node20',
    sourcemap: options.sourcemap,
    allowOverwrite: true,
    logLevel: 'error',
  })
}
