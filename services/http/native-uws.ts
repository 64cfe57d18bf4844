import { createRequire } from 'node:module'
import type * as UwsTypes from 'uWebSockets.js'

/**
 * Loads uWebSockets.js and refuses to go on with its JavaScript fallback: the package silently
 * substitutes a slow imitation when the native binary does not load for this Node build.
 */
export function loadNativeUws(): typeof UwsTypes {
  const uws = createRequire(import.meta.url)('uWebSockets.js') as typeof UwsTypes
  if (!String(uws.App).includes('[native code]')) {
    throw new Error(
      `uWebSockets.js has no native build for Node ${process.version} (${process.platform}-${process.arch}, ABI ${process.versions.modules}); refusing to start on its slow JavaScript fallback`,
    )
  }
  return uws
}
