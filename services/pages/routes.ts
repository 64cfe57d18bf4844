import type { Route } from '../http/http-server.ts'
import type { Reply } from '../http/reply.ts'
import { browserAsset } from './browser-assets.ts'
import { boardPage, docsPage, eventsPage, type AsyncApiView } from './page-html.ts'

const HTML = 'text/html; charset=utf-8'
const JAVASCRIPT = 'text/javascript; charset=utf-8'

const reply = (body: Buffer | string, contentType: string): Reply => ({
  status: 200,
  body,
  contentType,
  headers: { 'cache-control': 'no-cache' },
})

/** `/` (the live board), `/docs` (the REST reference), `/docs/events` (stream and bus) and their scripts. */
export function pageRoutes(asyncApiDocument: () => AsyncApiView): Route[] {
  const board = boardPage()
  const docs = docsPage()
  let events: string | undefined
  const boardScript = browserAsset('board.js')
  const referenceScript = browserAsset('api-reference.js')
  const get = (path: string, handle: () => Reply | Promise<Reply>): Route => ({ method: 'GET', path, handle })
  return [
    get('/', () => reply(board, HTML)),
    get('/docs', () => reply(docs, HTML)),
    get('/docs/events', () => reply((events ??= eventsPage(asyncApiDocument())), HTML)),
    get('/assets/board.js', () => reply(boardScript(), JAVASCRIPT)),
    // the renderer's own browser build, copied from its npm package at build time
    get('/assets/api-reference.js', () => reply(referenceScript(), JAVASCRIPT)),
  ]
}
