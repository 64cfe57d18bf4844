// `npm start`: the embedded default. Runs the compiled service (dist/), as production does, building it first
// (without the type check, in a few seconds) when the sources have changed since; plain JavaScript, so that
// nothing on the way to the first price loads TypeScript's loader. Beside the service, the development
// stand-ins the product never imports, each TypeScript loaded through tsx once the prices are up: development
// chains (deploy/devnet) when onboarding has no chain configured, the GraphQL stand-in (standins/subgraph)
// when no INDEXER_URL_* is set, and the History API stand-in (standins/history) when no HISTORY_URL is set.
import { spawnSync } from 'node:child_process'
import module from 'node:module'
import { fileURLToPath } from 'node:url'
import { isBuildCurrent } from './build-inputs.mjs'

// V8's compiled code kept between starts (Node 22 and later; in the OS's temporary folder): a warm start
// loads the service's modules in about half the time
module.enableCompileCache?.()

const ROOT = fileURLToPath(new URL('..', import.meta.url))
// the simulator starts about now: the history stand-in's walks pass through its starting prices at this instant
const simulatorStartedAt = Date.now()

if (!isBuildCurrent(ROOT, `${ROOT}dist`, { checked: false })) {
  process.stderr.write('npm start: the sources changed since the last build; compiling them into dist/ first\n')
  const built = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/build.ts', '--noCheck'], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  if (built.status !== 0) process.exit(built.status ?? 1)
}

/** A development stand-in's TypeScript module, loaded through tsx (registered on first use). */
let tsxRegistered
async function importTypeScript(path) {
  tsxRegistered ??= import('tsx/esm/api').then(({ register }) => register())
  await tsxRegistered
  return import(new URL(path, import.meta.url).href)
}

const { rolesFromCommandLine, serve } = await import('../dist/services/serve.js')
await serve(
  {
    startEmbeddedChains: async (logger) => (await importTypeScript('../deploy/devnet/embedded.ts')).startEmbeddedChains(logger),
    startEmbeddedIndexer: async () => (await importTypeScript('../standins/subgraph/embedded.ts')).startEmbeddedIndexer(),
    startEmbeddedHistory: async () => (await importTypeScript('../standins/history/embedded.ts')).startEmbeddedHistory(simulatorStartedAt),
  },
  rolesFromCommandLine('npm start --'),
)
