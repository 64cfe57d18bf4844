import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import type * as UwsTypes from 'uWebSockets.js'

const require = createRequire(import.meta.url)

/** uWebSockets.js v20.30 for Node 18 and 20; its Linux binaries need glibc 2.27, e.g. Debian 12 */
export const LEGACY_UWS = 'uWebSockets.js'
/**
 * uWebSockets.js v20.57 for Node 20, 22, 24 and 25; its Linux binaries need glibc 2.38, e.g. Debian 13. A build
 * of its own by the publisher, not the project's: HTTP idle and response timeouts of 30 s (uWebSockets' source
 * has 10 s), settable per app (see holdHttpTimeouts).
 */
export const CURRENT_UWS = '@btc-vision/uwebsockets.js'

/**
 * The package with a native binary for this Node build (its ABI, `process.versions.modules`): the legacy
 * one where it has one, since it also runs where glibc is older, otherwise the current one.
 */
export function uwsPackageFor(platform: string, arch: string, abi: string): string {
  const legacyDir = dirname(require.resolve(`${LEGACY_UWS}/package.json`))
  return existsSync(join(legacyDir, 'binaries', `uws_${platform}_${arch}_${abi}.node`)) ? LEGACY_UWS : CURRENT_UWS
}

/**
 * Loads uWebSockets.js and refuses to go on with a JavaScript fallback: the legacy package silently
 * substitutes a slow imitation when its native binary does not load (e.g. on a glibc it was not built for).
 */
export function loadNativeUws(): typeof UwsTypes {
  const name = uwsPackageFor(process.platform, process.arch, process.versions.modules)
  const where = `Node ${process.version} (${process.platform}-${process.arch}, ABI ${process.versions.modules}, ${name})`
  let uws: typeof UwsTypes
  try {
    uws = require(name) as typeof UwsTypes
  } catch (error) {
    throw new Error(`uWebSockets.js has no native build for ${where}: ${error instanceof Error ? error.message : String(error)}`)
  }
  if (!String(uws.App).includes('[native code]')) {
    throw new Error(`uWebSockets.js has no native build for ${where}; refusing to start on its slow JavaScript fallback`)
  }
  return uws
}

/**
 * uWebSockets' HTTP timeouts in its source (HTTP_IDLE_TIMEOUT_S in src/HttpContext.h, HTTP_TIMEOUT_S in
 * src/HttpResponse.h): how long a connection may go without a complete request head, and without reading
 * what it was sent or sending a next request after an answer, before it is closed.
 */
export const HTTP_TIMEOUT_SECONDS = 10

/** What the current package's App adds to uWebSockets.js's API (its type declarations do not list it). */
interface SettableHttpTimeouts {
  setIdleTimeout(seconds: number): unknown
  setResponseTimeout(seconds: number): unknown
}

/**
 * Holds `app` to uWebSockets' own HTTP timeouts, so that slow and half-open peers are cut after the same
 * 8 to 12 s on every build (docs/hostile-input.md): the legacy package has them built in; the current one
 * defaults to 30 s and lets an app set them.
 */
export function holdHttpTimeouts(app: UwsTypes.TemplatedApp): void {
  const settable = app as UwsTypes.TemplatedApp & Partial<SettableHttpTimeouts>
  settable.setIdleTimeout?.(HTTP_TIMEOUT_SECONDS)
  settable.setResponseTimeout?.(HTTP_TIMEOUT_SECONDS)
}
