import { createRequire } from 'node:module'
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import t from 'tap'
import { startIndexerStandin } from '../../standins/subgraph/index.ts'
import { readJson } from '../support/http.ts'
import { freePort } from '../support/servers.ts'
import { compiledEntry, startServiceProcess } from '../support/service-process.ts'
import { waitFor } from '../support/wait.ts'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))

/**
 * The image's layout in a temp dir: package.json, the build in dist/ and a node_modules without the dev
 * dependencies (symlinks to this checkout's packages), so neither tsx nor any other development tool can load.
 */
function productionInstall(dir: string): void {
  copyFileSync(join(ROOT, 'package.json'), join(dir, 'package.json'))
  const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> }
  const devOnly = new Set(Object.keys(manifest.devDependencies))
  const link = (name: string) => {
    if (devOnly.has(name) || name.startsWith('.')) return
    if (name.startsWith('@') && !name.includes('/')) {
      mkdirSync(join(dir, 'node_modules', name), { recursive: true })
      for (const scoped of readdirSync(join(ROOT, 'node_modules', name))) link(`${name}/${scoped}`)
      return
    }
    symlinkSync(join(ROOT, 'node_modules', name), join(dir, 'node_modules', name))
  }
  mkdirSync(join(dir, 'node_modules'))
  for (const name of readdirSync(join(ROOT, 'node_modules'))) link(name)
}

t.test('the compiled build serves prices with plain node, without tsx or any dev dependency', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'venue-build-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  // the run's build, type check included (`npm run build`'s; made here when it is not current), copied beside
  // production dependencies only
  compiledEntry()
  cpSync(join(ROOT, 'dist'), join(dir, 'dist'), { recursive: true })
  productionInstall(dir)
  const main = join(dir, 'dist', 'services', 'main.js')
  // bundled (scripts/bundle.ts): the modules a start loads are the entry points and dist/chunks/, not a file per source
  const modulesInServices = readdirSync(join(dir, 'dist', 'services'), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.js') && !file.startsWith(join('pages', 'assets')))
    .sort()
  t.same(modulesInServices, [join('http', 'native-uws.js'), 'main.js', 'serve.js'], 'the entry points alone')
  const resolveFromBuild = createRequire(main).resolve
  t.throws(() => resolveFromBuild('tsx'), { code: 'MODULE_NOT_FOUND' }, 'tsx cannot be loaded from the build')
  t.throws(() => resolveFromBuild('typescript'), { code: 'MODULE_NOT_FOUND' })
  t.ok(resolveFromBuild('uWebSockets.js'))
  t.throws(() => resolveFromBuild('esbuild'), { code: 'MODULE_NOT_FOUND' }, "the pages' scripts are built, not bundled at run time")
  t.throws(() => resolveFromBuild('@scalar/api-reference'), { code: 'MODULE_NOT_FOUND' })

  // the production entry starts no stand-in: its indexed source is configuration
  const standin = await startIndexerStandin()
  t.teardown(() => standin.close())
  const port = await freePort()
  const service = startServiceProcess(
    ['edge', 'ingestor'],
    {
      PORT: String(port),
      ONBOARDING_ENABLED: 'false',
      NODE_ENV: 'production',
      INDEXER_URL_42161: standin.url(42161),
      INDEXER_URL_421614: standin.url(421614),
    },
    undefined,
    { args: [main], cwd: dir },
  )
  t.teardown(() => service.stop())
  const starting = await service.waitForLog('starting roles')
  t.same(starting.roles, ['edge', 'ingestor'])
  // what the kernel ran (the spawn goes through a parent-death-signal wrapper that execs node)
  const proc = (file: string) => readFileSync(`/proc/${service.child.pid}/${file}`, 'utf8').split('\0').filter(Boolean)
  t.same(proc('cmdline'), [process.execPath, main, 'edge', 'ingestor'], 'plain node, no --import')
  // nothing the test run sets reaches the service through NODE_OPTIONS either
  const nodeOptions = proc('environ').find((variable) => variable.startsWith('NODE_OPTIONS=')) ?? ''
  t.notMatch(nodeOptions, /tsx/, 'no tsx loader through NODE_OPTIONS')
  await service.waitForLog('edge listening')
  const snapshot = await waitFor(
    async () => {
      const response = await fetch(`http://127.0.0.1:${port}/v1/prices`)
      const body = response.status === 200 ? await readJson(response) : undefined
      return body?.prices.length === 83 ? body : undefined
    },
    { what: '83 rows in /v1/prices', timeoutMs: 20_000 },
  )
  t.equal(snapshot.prices.length, 83)
  // the candle merge script and the depth parameters are read from dist at run time
  t.equal((await fetch(`http://127.0.0.1:${port}/v1/depth/BTC-USD`)).status, 200)
  // the pages' scripts were built into dist/ by the build
  for (const [script, built] of [
    ['board.js', join(dir, 'dist', 'services', 'pages', 'assets', 'board.js')],
    ['api-reference.js', join(dir, 'dist', 'services', 'pages', 'assets', 'api-reference.js')],
  ] as const) {
    const response = await fetch(`http://127.0.0.1:${port}/assets/${script}`)
    t.equal(response.status, 200, script)
    t.equal(response.headers.get('content-type'), 'text/javascript; charset=utf-8')
    t.ok(Buffer.from(await response.arrayBuffer()).equals(readFileSync(built)), `${script} is the built file`)
  }
  t.equal(await service.stop(), 0)
})
