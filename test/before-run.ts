// tap's `before` script (.taprc): builds the pages' scripts that in-process edges serve (as `npm start` does),
// then starts the run's shared development chain.
import { buildBrowserAssets } from '../scripts/build-browser-assets.ts'

buildBrowserAssets()
await import('./shared-devnet/before.ts')
