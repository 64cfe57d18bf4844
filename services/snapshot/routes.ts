import { ServiceError } from '../../kit/errors.ts'
import { pairByName } from '../../schemas/pairs.ts'
import { unknownPairError } from '../http/unknown-pair.ts'
import type { Route } from '../http/http-server.ts'
import { refuseQuery } from '../http/refuse-query.ts'
import { EncodedBody } from '../http/encoded-body.ts'
import { encodedJsonReply, jsonBytesReply, jsonReply, type Reply } from '../http/reply.ts'
import type { Materializer } from './materializer.ts'

/** GET /v1/prices, GET /v1/prices/{pair} and GET /v1/status (spec 4.2, 4.4, 4.6). */
export function snapshotRoutes(view: Materializer): Route[] {
  // one reply per snapshot body, so each compressed form is made once per change
  let snapshot: { body: Buffer; reply: Reply } | undefined
  return [
    {
      method: 'GET',
      path: '/v1/prices',
      budget: 'prices',
      headers: [],
      handle({ query }) {
        refuseQuery(query)
        const body = view.snapshotBody()
        if (!body) throw noTicksYet()
        if (snapshot?.body !== body) snapshot = { body, reply: encodedJsonReply(new EncodedBody(body, 'fast')) }
        return snapshot.reply
      },
    },
    {
      method: 'GET',
      path: '/v1/prices/:pair',
      budget: 'prices',
      handle({ params, query }) {
        refuseQuery(query)
        const pair = pairByName(params.pair!)?.symbol
        if (pair === undefined) throw unknownPairError(params.pair!)
        const row = view.rowBody(pair)
        if (row) return jsonBytesReply(200, row)
        if (!view.snapshotBody()) throw noTicksYet()
        throw new ServiceError('not_found', `no price for ${pair}: it has no trading schedule or has not ticked yet`, {
          details: { pair },
        })
      },
    },
    {
      method: 'GET',
      path: '/v1/status',
      budget: 'status',
      handle: ({ query }) => {
        refuseQuery(query)
        return jsonReply(200, view.status())
      },
    },
  ]
}

/** Spec 7: 503 in the framework shape plus `stale: true`; the client retries. */
function noTicksYet(): ServiceError {
  return new ServiceError('no_ticks_yet', 'the feed has delivered no ticks yet; retry shortly', { retryAfterSeconds: 1, stale: true })
}
