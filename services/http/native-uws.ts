import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import type * as UwsTypes from 'uWebSockets.js'

const require = createRequire(import.meta.url)

/** uWebSockets.js v20.30 for Node 18 and 20; its Linux binaries need glibc 2.27, e.g. Debian 12 */
export const LEGACY_UWS = 'uWebSockets.js'
/** uWebSockets.js v20.57 for Node 20, 22, 24 and 25; its Linux binaries need glibc 2.38, e.g. Debian 13 */
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
