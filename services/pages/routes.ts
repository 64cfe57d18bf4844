import type { Route } from '../http/http-server.ts'
import type { Reply } from '../http/reply.ts'
import { browserAsset } from './browser-assets.ts'
import { boardPage, docsPage, eventsPage, pairPage, type AsyncApiView } from './page-html.ts'

const HTML = 'text/html; charset=utf-8'
const JAVASCRIPT = 'text/javascript; charset=utf-8'
const CSS = 'text/css; charset=utf-8'

const reply = (body: Buffer | string, contentType: string): Reply => ({
  status: 200,
  body,
  contentType,
  headers: { 'cache-control': 'no-cache' },
})

/** `/` (the live board), `/pair` (one pair's candles), `/docs` (the REST reference), `/docs/events` (stream and bus) and their scripts. */
export function pageRoutes(asyncApiDocument: () => AsyncApiView): Route[] {
  const board = boardPage()
  const pair = pairPage()
  const docs = docsPage()
  let events: string | undefined
  const boardScript = browserAsset('board.js')
  const pairScript = browserAsset('pair.js')
  const chartStyle = browserAsset('uplot.css')
  const referenceScript = browserAsset('api-reference.js')
  const get = (path: string, handle: () => Reply | Promise<Reply>): Route => ({ method: 'GET', path, handle })
  return [
    get('/', () => reply(board, HTML)),
    get('/pair', () => reply(pair, HTML)),
    get('/docs', () => reply(docs, HTML)),
    get('/docs/events', () => reply((events ??= eventsPage(asyncApiDocument())), HTML)),
    get('/assets/board.js', () => reply(boardScript(), JAVASCRIPT)),
    get('/assets/pair.js', () => reply(pairScript(), JAVASCRIPT)),
    get('/assets/uplot.css', () => reply(chartStyle(), CSS)),
    // the renderer's own browser build, copied from its npm package at build time
    get('/assets/api-reference.js', () => reply(referenceScript(), JAVASCRIPT)),
  ]
}
