// How the benches run the service: as the container image runs it, compiled JavaScript started by plain
// node (not tsx, whose on-the-fly transform adds a helper call to every function it creates) with the
// image's allocator setting. The build is `npm run build`'s, into dist/.
import { execFileSync } from 'node:child_process'
import { dirname, join, resolve } from 'node:path'
import { build } from '../scripts/build.ts'

/** the image's environment that changes how the process runs (deploy/container/Dockerfile) */
export const IMAGE_ENV = {
  NODE_ENV: 'production',
  MALLOC_MMAP_THRESHOLD_: '131072',
  // an edge needs its indexed source configured; the benches read prices and the stream only, never these
  INDEXER_URL_42161: 'http://127.0.0.1:9/unused-42161',
  INDEXER_URL_421614: 'http://127.0.0.1:9/unused-421614',
}

/**
 * Builds the production code into dist/; returns the entry for startServiceProcess. With
 * BENCH_SERVICE_CHECKOUT set to another checkout of the project, that checkout is built by its own
 * scripts/build.ts and measured instead: two trees compared with this tree's load clients and baselines.
 */
export function compiledService(): { args: string[]; cwd: string } {
  const checkout = process.env.BENCH_SERVICE_CHECKOUT
  if (checkout) {
    const root = resolve(checkout)
    execFileSync(process.execPath, ['--import', 'tsx', join(root, 'scripts', 'build.ts'), '--noCheck'], { cwd: root, stdio: 'inherit' })
    return { args: [join(root, 'dist', 'services', 'main.js')], cwd: root }
  }
  const outDir = build({ noCheck: true })
  return { args: [join(outDir, 'services', 'main.js')], cwd: dirname(outDir) }
}
