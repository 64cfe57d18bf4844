// The two servers of the subgraph-door bench, in one child process each (argv[2] picks which):
// `door`     the subgraph stand-in and the door's routes on the service's HTTP kit (budgets off, as the
//            REST bench runs the service), on argv[3];
// `baseline` a bare uWebSockets.js POST route that reads the body and writes the bytes the door answered
//            for the bench's query (asked once from the door at argv[4]), on argv[3].
// Each prints one line once it listens.
import { pino } from 'pino'
import { createMetrics } from '../kit/metrics.ts'
import { startIndexerStandin } from '../standins/subgraph/index.ts'
import { createHttpServer } from '../services/http/http-server.ts'
import { loadNativeUws } from '../services/http/native-uws.ts'
import { createRateLimits } from '../services/http/rate-limits.ts'
import { subgraphDoorConfig } from '../services/subgraph-door/config.ts'
import { subgraphDoorRoutes } from '../services/subgraph-door/routes.ts'
import { BENCH_QUERY_BODY } from './subgraph-door-query.ts'

const [role, port, doorUrl] = [process.argv[2], Number(process.argv[3]), process.argv[4]]

if (role === 'door') {
  const logger = pino({ level: 'warn' })
  const metrics = createMetrics()
  const standin = await startIndexerStandin()
  const server = createHttpServer({
    logger,
    metrics,
    rateLimits: createRateLimits({ logger, enabled: false }),
    resolveClientIp: (peer) => peer,
    bodyLimitBytes: 64 * 1024,
  })
  // a cache time longer than a run: every measured request is a cached answer
  const config = subgraphDoorConfig({ SUBGRAPH_DOOR_CACHE_MS: '600000' })
  server.addRoutes(subgraphDoorRoutes({ urls: { 42161: standin.url(42161), 421614: standin.url(421614) }, config, metrics }))
  await server.listen('127.0.0.1', port)
  console.log(`door listening on ${port}`)
} else if (role === 'baseline') {
  const answer = await fetch(doorUrl!, { method: 'POST', headers: { 'content-type': 'application/json' }, body: BENCH_QUERY_BODY })
  const bytes = Buffer.from(await answer.arrayBuffer())
  if (answer.status !== 200 || !bytes.toString().startsWith('{"data"'))
    throw new Error(`the door did not answer the bench query: ${answer.status}`)
  loadNativeUws()
    .App()
    .post('/v1/subgraph/gn', (res) => {
      let aborted = false
      res.onAborted(() => (aborted = true))
      res.onData((_chunk, isLast) => {
        if (!isLast || aborted) return
        res.cork(() => res.writeHeader('content-type', 'application/json').end(bytes))
      })
    })
    .listen('127.0.0.1', port, (socket) => {
      if (!socket) throw new Error(`cannot listen on ${port}`)
      console.log(`baseline listening on ${port}: ${bytes.length} bytes`)
    })
} else {
  throw new Error('usage: subgraph-door-servers.ts door|baseline <port> [door url]')
}
