import { readFileSync } from 'node:fs'
import { ServiceError } from '../../kit/errors.ts'

/** Beside this module: where scripts/build-browser-assets.ts writes the pages' scripts. */
export const BROWSER_ASSETS_FOLDER = 'assets'

export type BrowserAsset = 'board.js' | 'pair.js' | 'uplot.css' | 'api-reference.js'

/**
 * A page script built before the service runs (`npm run build`, `npm start`, the test run), read once when
 * first asked for. One that was not built is a 500 naming the command that builds it.
 */
export function browserAsset(name: BrowserAsset): () => Buffer {
  let contents: Buffer | undefined
  return () => {
    try {
      return (contents ??= readFileSync(new URL(`./${BROWSER_ASSETS_FOLDER}/${name}`, import.meta.url)))
    } catch (error) {
      throw new ServiceError('internal', `the page script ${name} is not built (npm run build:assets)`, { cause: error })
    }
  }
}
