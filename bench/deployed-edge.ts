// How the benches run the service: as the container image runs it, compiled JavaScript started by plain
// node (not tsx, whose on-the-fly transform adds a helper call to every function it creates) with the
// image's allocator setting. The build is `npm run build`'s, into dist/.
import { dirname, join } from 'node:path'
import { build } from '../scripts/build.ts'

/** the image's environment that changes how the process runs (deploy/container/Dockerfile) */
export const IMAGE_ENV = {
  NODE_ENV: 'production',
  MALLOC_MMAP_THRESHOLD_: '131072',
  // an edge needs its indexed source configured; the benches read prices and the stream only, never these
  INDEXER_URL_42161: 'http://127.0.0.1:9/unused-42161',
  INDEXER_URL_421614: 'http://127.0.0.1:9/unused-421614',
}

/** Builds the production code into dist/; returns the entry for startServiceProcess. */
export function compiledService(): { args: string[]; cwd: string } {
  const outDir = build({ noCheck: true })
  return { args: [join(outDir, 'services', 'main.js')], cwd: dirname(outDir) }
}
