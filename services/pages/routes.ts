import { createRequire } from 'node:module'
import { readFileSync } from 'node:fs'
import type { Route } from '../http/http-server.ts'
import type { Reply } from '../http/reply.ts'
import { browserBundle } from './bundle.ts'
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
  let reference: Buffer | undefined
  const boardScript = browserBundle('board.ts')
  const get = (path: string, handle: () => Reply | Promise<Reply>): Route => ({ method: 'GET', path, handle })
  return [
    get('/', () => reply(board, HTML)),
    get('/docs', () => reply(docs, HTML)),
    get('/docs/events', () => reply((events ??= eventsPage(asyncApiDocument())), HTML)),
    get('/assets/board.js', async () => reply(await boardScript(), JAVASCRIPT)),
    // the renderer's own browser build, from its npm package
    get('/assets/api-reference.js', () =>
      reply(
        (reference ??= readFileSync(createRequire(import.meta.url).resolve('@scalar/api-reference/browser/standalone.js'))),
        JAVASCRIPT,
      ),
    ),
  ]
}
