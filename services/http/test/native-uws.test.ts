import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import t from 'tap'
import type { TemplatedApp } from 'uWebSockets.js'
import { CURRENT_UWS, holdHttpTimeouts, LEGACY_UWS, loadNativeUws, uwsPackageFor } from '../native-uws.ts'
import { alsoOnNode20 } from '../../../test/support/on-node-20.ts'

const NATIVE_UWS = fileURLToPath(new URL('../native-uws.ts', import.meta.url))

t.test('each Node ABI gets the package that has its binary', async (t) => {
  t.equal(uwsPackageFor('linux', 'x64', '115'), LEGACY_UWS, 'Node 20: the build that runs on glibc 2.27+')
  t.equal(uwsPackageFor('linux', 'x64', '127'), CURRENT_UWS, 'Node 22')
  t.equal(uwsPackageFor('linux', 'x64', '137'), CURRENT_UWS, 'Node 24')
  t.equal(uwsPackageFor('darwin', 'arm64', '115'), LEGACY_UWS)
})

t.test('this Node loads a native build', async (t) => {
  const uws = loadNativeUws()
  t.match(String(uws.App), /\[native code\]/)
})

const legacyHere = uwsPackageFor(process.platform, process.arch, process.versions.modules) === LEGACY_UWS
t.test(
  "the legacy package's JavaScript fallback is refused",
  { skip: legacyHere ? false : 'this Node uses the current package, which has no fallback' },
  async (t) => {
    // a fresh process: the package decides between binary and fallback once, when first loaded
    const script = `import { loadNativeUws } from ${JSON.stringify(NATIVE_UWS)}; loadNativeUws()`
    const run = promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      env: { PATH: process.env.PATH ?? '', UWS_USE_FALLBACK: '1' },
    })
    const failure = await run.then(
      () => undefined,
      (error: { code: number; stderr: string }) => error,
    )
    t.equal(failure?.code, 1)
    t.match(failure?.stderr, /uWebSockets\.js has no native build for Node v[\d.]+ .*refusing to start on its slow JavaScript fallback/)
  },
)

t.test("an app is held to uWebSockets' HTTP timeouts of 10 s", async (t) => {
  const app = loadNativeUws().App() as TemplatedApp & { getIdleTimeout?: () => number; getResponseTimeout?: () => number }
  if (legacyHere) {
    // v20.30 has them built in (HTTP_IDLE_TIMEOUT_S, HTTP_TIMEOUT_S), with nothing to set them
    t.same([typeof app.getIdleTimeout, typeof app.getResponseTimeout], ['undefined', 'undefined'])
    t.doesNotThrow(() => holdHttpTimeouts(app))
  } else {
    t.same([app.getIdleTimeout?.(), app.getResponseTimeout?.()], [30, 30], "the current package's own defaults")
    holdHttpTimeouts(app)
    t.same([app.getIdleTimeout?.(), app.getResponseTimeout?.()], [10, 10], 'held to 10 s')
  }
})

// the other supported Node line, where the uWebSockets.js build differs (test/support/on-node-20.ts)
await alsoOnNode20(t, import.meta.url)
