// How the benches run the service: as the container image runs it, compiled JavaScript started by plain
// node (not tsx, whose on-the-fly transform adds a helper call to every function it creates) with the
// image's allocator setting. The build is `npm run build`'s, into dist/.
import { execFileSync } from 'node:child_process'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { isBuildCurrent } from '../scripts/build.ts'
import { UNUSED_INDEXED_SOURCE } from '../test/support/service-process.ts'

const ROOT = fileURLToPath(new URL('..', import.meta.url))

/** the image's environment that changes how the process runs (deploy/container/Dockerfile) */
export const IMAGE_ENV = {
  NODE_ENV: 'production',
  MALLOC_MMAP_THRESHOLD_: '131072',
  // an edge needs its indexed source configured; the benches read prices and the stream only, never these
  ...UNUSED_INDEXED_SOURCE,
}

/**
 * The production build in dist/ (built when it is not current); returns the entry for startServiceProcess. With
 * `checkout` (by default BENCH_SERVICE_CHECKOUT) naming another checkout of the project, that checkout is built by
 * its own scripts/build.ts and measured instead: two trees compared with this tree's load clients and baselines.
 */
export function compiledService(checkout = process.env.BENCH_SERVICE_CHECKOUT): { args: string[]; cwd: string } {
  const root = checkout ? resolve(checkout) : ROOT
  if (checkout || !isBuildCurrent({ checked: false })) {
    execFileSync(process.execPath, ['--import', 'tsx', join(root, 'scripts', 'build.ts'), '--noCheck'], { cwd: root, stdio: 'inherit' })
  }
  return { args: [join(root, 'dist', 'services', 'main.js')], cwd: root }
}
