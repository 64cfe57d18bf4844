// The AsyncAPI 3.0 description of the event interfaces: the WebSocket price and candle streams and the NATS
// subjects and key-value bucket internal services read. Payloads come from the same zod schemas the
// stream and the bus use; only the prose and the channel layout are written here.
import { z } from 'zod'
import { priceRowExample, stockRowExample } from './openapi-examples.ts'
import { pairBySymbol } from './pairs.ts'
import { PriceRow } from './price.ts'
import {
  AckFrame,
  BatchFrame,
  CandleFrame,
  CandleSnapshotFrame,
  ClientMessage,
  CompactSnapshotFrame,
  CompactSnapshotFrameWithCursor,
  CompactTickFrame,
  CompactTickFrameWithCursor,
  ErrorFrame,
  GapFrame,
  GapFrameWithCursor,
  HeartbeatFrame,
  HeartbeatFrameWithCursor,
  ResumedFrame,
  SnapshotFrame,
  SnapshotFrameWithCursor,
  StaticFrame,
  STREAM_RATES,
  TickFrame,
  TickFrameWithCursor,
} from './stream.ts'

export interface BusAddresses {
  /** the tick subject with `{pair}` in place of the symbol, e.g. prices.v1.tick.{pair} */
  tickSubject: string
  /** the subject the tick stream republishes a stored tick on, e.g. prices.v1.numbered.{pair} */
  numberedTickSubject: string
  /** the key-value bucket holding the latest row per pair */
  latestPricesBucket: string
}

const SCHEMAS = {
  PriceRow,
  SnapshotFrame,
  TickFrame,
  GapFrame,
  SnapshotFrameWithCursor,
  TickFrameWithCursor,
  GapFrameWithCursor,
  ResumedFrame,
  CompactSnapshotFrame,
  CompactSnapshotFrameWithCursor,
  StaticFrame,
  CompactTickFrame,
  CompactTickFrameWithCursor,
  HeartbeatFrame,
  HeartbeatFrameWithCursor,
  BatchFrame,
  AckFrame,
  ErrorFrame,
  ClientMessage,
  CandleSnapshotFrame,
  CandleFrame,
}
type SchemaName = keyof typeof SCHEMAS

const ref = (path: string) => ({ $ref: `#/${path}` })

/** The schemas as JSON Schema (draft-07, AsyncAPI's default schema format), referring to each other by $ref. */
function componentSchemas(): Record<SchemaName, unknown> {
  const registry = z.registry<{ id: string }>()
  for (const [id, schema] of Object.entries(SCHEMAS)) registry.add(schema, { id })
  const { schemas } = z.toJSONSchema(registry, { target: 'draft-7', uri: (id) => `#/components/schemas/${id}` })
  return Object.fromEntries(Object.entries(schemas).map(([id, { $schema: _schema, $id: _id, ...schema }]) => [id, schema])) as Record<
    SchemaName,
    unknown
  >
}

/** The stream's per-replica limits the document states (the service's budget table holds them). */
export interface StreamLimits {
  connectionsPerIp: number
  connections: number
  upgradesPerIpPerMinute: number
  messagesPerSocketPerMinute: number
}

const STREAM_DESCRIPTION = (
  limits: StreamLimits,
) => `One WebSocket per client. The first frame is a \`snapshot\`: \`seq\` holds the baseline of every pair the connection receives (0 for a pair not yet ticked), \`data\` the rows that exist. Then one \`tick\` per price update; \`seq\` counts a pair's ticks for the whole deployment (every replica shows the same numbers, across restarts), so a jump means lost ticks. A \`gap\` frame says how many ticks were dropped for this connection (a slow reader past 1 MiB buffered, conflation when the server falls behind, or ticks the replica missed while off the bus); re-read \`GET /v1/prices\` when the seq jumps that follow do not account for it.

**Cursor and resume (opt-in).** With \`?cursor=true\` the \`snapshot\`, \`tick\` and \`gap\` frames also carry \`cursor\` (\`<epoch>-<position>\`). With \`?from=<cursor>\` (and the usual \`pairs\`) the first frame is \`resumed\`: \`recovered: true\` and then every tick of the filter after the cursor, in order and once, then live ticks, no snapshot, seq continuing; or \`recovered: false\` (a cursor older than the retained window, of another epoch, or unknown) and the usual snapshot. A malformed cursor refuses the upgrade with 400, as does a \`heartbeat\` out of range or not a whole number, an unknown \`rate\`, or any parameter given twice. Without opt-in the frames are as above, with no cursor.

**Folded resume (opt-in).** With \`?replay=latest\` beside \`?from=\` (or \`Last-Event-ID\`), a recovered resume sends, after \`resumed\`, one \`gap\` (with the cursor resumed from) counting every tick it leaves out, then only the latest tick of each pair that ticked after the cursor, in cursor order: each pair's seq jumps by its folded ticks plus one, and those jumps add up to the gap's \`dropped\`. It costs at most one tick per pair however long the client was away. \`?replay=all\` (the default) replays every tick.

**Compact frames (opt-in).** With \`?format=compact\` the snapshot adds \`ids\`, the pair id of each row; each tick is \`t\`: \`seq\`, the pair id \`p\` and \`d\`, the row's changing fields by position (bid, mid, ask, flags = isMarketOpen 1 + isDayTradingClosed 2, secondsToToggleIsDayTradingClosed, timestampSeconds), with \`cursor\` as opted in; the rest of the row (feed id, pair, from, to, schedule) is the pair's static part, sent in a \`static\` frame before a tick whenever it differs from the one the connection has (a pair's first tick without a snapshot row, a pair added by \`subscribe\`, a changed feed id or schedule, and after ticks dropped for a slow reader). The row is the static part with the tick's fields. Gaps, seq, cursors, resume and the limits are as above; a resume replays compact frames. An unknown \`format\` or \`replay\`, or either repeated, refuses the upgrade with 400.

**Heartbeat (opt-in).** With \`?heartbeat=<seconds>\` (1 to 60) a connection that was sent nothing for that long gets, in either format, \`{"type":"heartbeat","time":<ms>}\`, with \`cursor\` (the latest tick sent) when it carries cursors, at most a quarter of a second past the interval: a client that hears nothing for twice the interval can take the connection for dead and resume from its last cursor.

**Rate (opt-in).** \`?rate=real_time\` (the default) sends every tick as it comes. \`fixed_rate@50ms\`, \`fixed_rate@200ms\` or \`fixed_rate@1000ms\` send, at the end of each window, the latest row of each pair of the filter that changed in it, as the same \`tick\` frame (\`t\` with compact frames, after a \`static\` frame exactly where a real-time connection would get one), in position order; its \`seq\` jump is the ticks folded into it, which is not a loss, so no \`gap\` announces it. A \`gap\` still announces real losses (the slow-client rule, ticks the replica missed), counting the ticks the rows not sent carried. A resume (\`?from=\`) replays the ticks after the cursor up to the latest window sent (every one, or with \`?replay=latest\` each pair's latest after one \`gap\`, as above), and windows follow. With \`?batch=true\` (WebSocket only) each window comes as one frame, \`{"type":"batch","frames":[...]}\`, holding the frames it would otherwise send one by one, in their order and byte for byte; a window that sends none of the connection's pairs sends no batch, and a connection past the slow-client limit at the window's end is not sent it, its next \`gap\` counting its ticks. At real time \`batch=true\` does the same for the ticks the edge sends together (those of one read from the bus, or, when it is behind, the latest per pair of the reads that waited), in position order, a batch going out once it holds 16 KiB: fewer frames for a client that takes every pair at high rates. A resume's replay comes frame by frame, then batches. \`batch=true\` on an event stream refuses with 400.

**Server-Sent Events.** The same path answers \`GET\` with \`Accept: text/event-stream\`: events \`snapshot\`, \`tick\`, \`gap\`, \`resumed\` and \`heartbeat\` (\`t\` and \`static\` with compact frames), each \`data\` the frame's JSON with its cursor and \`id\` the cursor; \`Last-Event-ID\` (or \`?from=\`) resumes as above. Same \`pairs\` filter, budgets, ceilings and origin allowlist; a comment every 5 s; the response ends at shutdown (an \`EventSource\` comes back with its \`Last-Event-ID\`). A plain GET is 426.

**Filter state machine.** Without \`?pairs=\` a connection receives every pair: \`subscribe\` is acked with \`pairCount: null\` whatever it lists, and \`unsubscribe\` is an \`error\` \`no_filter\` (reconnect with \`?pairs=\` to narrow). With \`?pairs=\` the connection is filtered: \`subscribe\` adds listed pairs, \`unsubscribe\` removes them (down to 0), each acked with the number of pairs now received; an unlisted symbol or an empty list is \`invalid_pairs\`. Wherever a pair is named (\`?pairs=\`, \`subscribe\`, \`unsubscribe\`) its legacy spelling from the pairs list is accepted too (\`SPX-USD\` for \`US500-USD\`); the filter counts an asset once whichever spelling named it, and every frame names the pair by its symbol. A pair added by \`subscribe\` has no baseline: its first tick is one. Every client message gets exactly one reply (\`ack\` or \`error\`), in order; \`malformed\` for anything that is not \`{ type, pairs: [...] }\` JSON text, \`unknown_type\` for another \`type\`.

**Limits (per replica).** ${limits.connectionsPerIp} connections per IP (429), ${limits.connections} in total (503), ${limits.upgradesPerIpPerMinute} upgrades per IP per minute (429), ${limits.messagesPerSocketPerMinute} client messages per socket per minute (\`error\` \`rate_limited\`), 4 KiB per client message (larger closes the connection). Per IP means per IPv4 address, or per IPv6 prefix (a /64 unless configured otherwise). Refused upgrades carry \`Retry-After\` and the framework error body; an \`Origin\` outside the allowlist gets a bare 403; an invalid query 400. A ping every 30 s; a socket that missed the previous pong is terminated. Shutdown closes with 1001.`

const CANDLE_STREAM_DESCRIPTION = (
  limits: StreamLimits,
) => `Candles as they form, for charts: one pair list and one resolution per connection. The first frame is a \`snapshot\`: for each pair, in pair-id order, its last closed candle and its forming one, where they exist. Then \`candle\` frames, each a candle as \`POST /v1/ohlc\` answers it (\`time\` in milliseconds) with its \`resolution\` and \`closed\`: while a candle forms, at most one frame per pair per second, and only when it changed; when its period ends, exactly one frame with \`closed: true\`, within a second, the candle \`POST /v1/ohlc\` answers for that period. A period without ticks has no candle. While a pair's market is closed (the market-hours calendar) no frame of it is sent, nor the candle of a period its market was closed throughout. A \`gap\` says how many candle frames were dropped for this connection (a slow reader past 1 MiB buffered); re-read the candles with \`POST /v1/ohlc\` or \`GET /v1/udf/history\`.

**Heartbeat (opt-in).** With \`?heartbeat=<seconds>\` (1 to 60) a connection that was sent nothing for that long gets \`{"type":"heartbeat","time":<ms>}\` (no cursor: the candle stream has none), at most a quarter of a second past the interval, as on the price stream.

**Server-Sent Events.** The same path answers \`GET\` with \`Accept: text/event-stream\`: events \`snapshot\`, \`candle\`, \`gap\` and \`heartbeat\`, each \`data\` the frame's JSON; no \`id\` (an \`EventSource\` that comes back starts from a new snapshot). A comment every 5 s; the response ends at shutdown. A plain GET is 426.

**Limits (per replica), shared with the price stream.** A candle-stream connection takes a place in the price stream's ceilings: ${limits.connectionsPerIp} connections per IP (429) and ${limits.connections} in total (503) for both paths together, and both draw on one budget of ${limits.upgradesPerIpPerMinute} upgrades per IP per minute (429). The origin allowlist is the price stream's. Client messages are not read. Shutdown closes with 1001.`

const TICKS_DESCRIPTION = (busAddresses: BusAddresses) =>
  `Every price update of one pair, published by the ingestor at once, in order per pair. The message is the price row as UTF-8 JSON bytes, the same bytes the REST snapshot and the stream carry, with the header \`Price-Seq\`: the tick's per-pair seq, as the stream shows it. The JetStream stream \`price-ticks\` (\`<namespace>-price-ticks\`) keeps every tick for the resume window (\`STREAM_RESUME_WINDOW_SECONDS\`): its sequence is the tick's position, the second half of a stream cursor, and its creation time (in base 36 milliseconds) the first; to replay from a cursor, read it with an ordered consumer starting at the position after the cursor's. Subscribe to \`${busAddresses.tickSubject.replace('{pair}', '*')}\` for every pair; use a queue group to split them between replicas. A deployment's \`BUS_NAMESPACE\` prefixes the subject (\`<namespace>.${busAddresses.tickSubject}\`).

**Versioning.** The \`v1\` in the subject is the row format's version. Within v1 changes are additive only: new fields may appear, so readers ignore fields they do not know. Removing or renaming a field, or changing its type or meaning, publishes on \`v2\` subjects, beside v1 for a deprecation period.`

const NUMBERED_TICKS_DESCRIPTION = (busAddresses: BusAddresses) =>
  `Every tick again, once the tick stream has stored it: JetStream republishes each (the stream's \`republish\` setting), with the headers \`Nats-Sequence\` (the tick's position, as in a cursor), \`Nats-Stream\`, \`Nats-Subject\` (its tick subject), \`Nats-Time-Stamp\` and \`Nats-Last-Sequence\` beside the tick's own \`Price-Seq\`. One core subscription to \`${busAddresses.numberedTickSubject.replace('{pair}', '*')}\` thus gives every tick with its numbers, without a consumer; a jump in \`Nats-Sequence\` (a reconnection, a slow subscriber, a stream leader's change) is filled by reading the stream from the position after the last one seen. The service's own processes read ticks this way. A stream made before republish existed, on a server before 2.10 (which cannot add it to an existing stream), publishes nothing here: its readers follow the stream with a consumer. \`BUS_NAMESPACE\` prefixes the subject as it does the tick subject.`

/** the `{pair}` token of the tick subjects, plain and numbered */
const TICK_SUBJECT_PARAMETERS = { pair: { description: 'Pair symbol, e.g. BTC-USD', examples: ['BTC-USD', 'XAU-USD'] } }

const LATEST_DESCRIPTION = (busAddresses: BusAddresses) =>
  `The JetStream key-value bucket \`${busAddresses.latestPricesBucket}\` (history 1): key = pair symbol, value = that pair's latest row, the same UTF-8 JSON bytes as on the tick subject. It is written at most once per pair every 250 ms, so it lags the ticks slightly: read it to seed a starting reader, then follow the ticks. With \`BUS_NAMESPACE\` the bucket is \`<namespace>-${busAddresses.latestPricesBucket}\`. This channel is the bucket's underlying subject; read it through a key-value client (get, keys, watch).`

const candleExample = {
  from: 'BTC',
  to: 'USD',
  time: 1_767_225_660_000,
  open: 87_412.5,
  high: 87_430.25,
  low: 87_401.75,
  close: 87_420,
  resolution: '1',
}

const streamMessage = (name: string, title: string, schema: SchemaName, example: unknown) => ({
  name,
  title,
  contentType: 'application/json',
  payload: ref(`components/schemas/${schema}`),
  examples: [{ payload: example }],
})

const pairIdOf = (row: PriceRow) => pairBySymbol(row.pair)!.id

function staticPartOf({ feed_id, pair, from, to, schedule }: PriceRow) {
  return { feed_id, pair, from, to, schedule }
}

function compactTickOf(row: PriceRow, seq: number) {
  const flags = (row.isMarketOpen ? 1 : 0) + (row.isDayTradingClosed ? 2 : 0)
  const d = [row.bid, row.mid, row.ask, flags, row.secondsToToggleIsDayTradingClosed, row.timestampSeconds]
  return { type: 't', seq, p: pairIdOf(row), d }
}

export function buildAsyncApiDocument(busAddresses: BusAddresses, streamLimits: StreamLimits) {
  return {
    asyncapi: '3.0.0',
    info: {
      title: 'Venue gateway events',
      version: '1.0.0',
      description:
        'The WebSocket price and candle streams of the venue gateway, and the NATS interface internal services use to read the same ticks and latest prices without the gateway. The REST API is described by the OpenAPI document at `/v1/openapi.json`.',
      license: { name: 'Proprietary' },
    },
    defaultContentType: 'application/json',
    servers: {
      gateway: {
        host: '{host}',
        protocol: 'ws',
        description: 'The gateway (wss behind TLS)',
        variables: { host: { default: 'localhost:8080', description: 'Host and port of the deployment' } },
      },
      bus: {
        host: '{host}',
        protocol: 'nats',
        description: 'The internal NATS cluster (JetStream enabled)',
        variables: { host: { default: 'localhost:4222', description: 'A NATS server of the deployment' } },
      },
    },
    channels: {
      priceStream: {
        address: '/v1/prices/stream',
        title: 'Price stream',
        description: STREAM_DESCRIPTION(streamLimits),
        servers: [ref('servers/gateway')],
        messages: {
          snapshot: ref('components/messages/snapshot'),
          tick: ref('components/messages/tick'),
          gap: ref('components/messages/gap'),
          snapshotWithCursor: ref('components/messages/snapshotWithCursor'),
          tickWithCursor: ref('components/messages/tickWithCursor'),
          gapWithCursor: ref('components/messages/gapWithCursor'),
          resumed: ref('components/messages/resumed'),
          compactSnapshot: ref('components/messages/compactSnapshot'),
          compactSnapshotWithCursor: ref('components/messages/compactSnapshotWithCursor'),
          static: ref('components/messages/static'),
          compactTick: ref('components/messages/compactTick'),
          compactTickWithCursor: ref('components/messages/compactTickWithCursor'),
          heartbeat: ref('components/messages/heartbeat'),
          heartbeatWithCursor: ref('components/messages/heartbeatWithCursor'),
          batch: ref('components/messages/batch'),
          ack: ref('components/messages/ack'),
          error: ref('components/messages/error'),
          filterChange: ref('components/messages/filterChange'),
        },
        bindings: {
          ws: {
            method: 'GET',
            query: {
              type: 'object',
              properties: {
                pairs: {
                  type: 'string',
                  description:
                    'Comma-separated pair symbols (or their legacy spellings, such as SPX-USD); omitted means every pair. An unlisted symbol, an empty list, a repeated `pairs` or any other parameter refuses the upgrade with 400.',
                  examples: ['BTC-USD,ETH-USD'],
                },
                cursor: {
                  type: 'string',
                  enum: ['true', 'false'],
                  description: '`true`: the snapshot, tick and gap frames carry their `cursor`',
                },
                from: {
                  type: 'string',
                  description:
                    'A cursor to resume after (frames then carry theirs): the first frame is `resumed`. Not `<epoch>-<position>`: 400. For Server-Sent Events the `Last-Event-ID` header does the same (`from` wins when both are sent).',
                  examples: ['mwysrltn-311'],
                },
                format: {
                  type: 'string',
                  enum: ['full', 'compact'],
                  description: '`compact`: compact frames (`t` and `static`, and `ids` in the snapshot); `full` (the default): rows',
                },
                replay: {
                  type: 'string',
                  enum: ['all', 'latest'],
                  description:
                    "What a recovered resume replays: `all` (the default) every tick after the cursor; `latest` each pair's latest tick, after one `gap` counting the ticks folded",
                },
                heartbeat: {
                  type: 'string',
                  pattern: '^[1-9][0-9]?$',
                  description:
                    'Whole seconds from 1 to 60: after that long with nothing sent, a `heartbeat` frame (with the latest cursor when frames carry cursors)',
                  examples: ['5'],
                },
                rate: {
                  type: 'string',
                  enum: [...STREAM_RATES],
                  description:
                    '`real_time` (the default): every tick as it comes; `fixed_rate@<n>ms`: at the end of each window, the latest row of each pair that changed in it (a seq jump is the ticks folded, not a loss)',
                },
                batch: {
                  type: 'string',
                  enum: ['true', 'false'],
                  description:
                    "`true`, over WebSocket: each window's frames at a fixed rate, at real time the ticks sent together (up to 16 KiB), in one `batch` frame (400 on an event stream)",
                },
              },
              additionalProperties: false,
            },
            bindingVersion: '0.1.0',
          },
          http: {
            method: 'GET',
            description:
              "Server-Sent Events (`Accept: text/event-stream`, answered `200` with `Content-Type: text/event-stream`): every event is `event: <type>` (the frame's type: `snapshot`, `tick`, `gap`, `resumed`, `heartbeat`, and with compact frames `t` and `static`), `id: <cursor>` (none on `resumed` with `recovered: false`, nor on `static`) and `data: <the frame>`; the query is the WebSocket's, and the `Last-Event-ID` header resumes.",
            bindingVersion: '0.3.0',
          },
        },
      },
      candleStream: {
        address: '/v1/candles/stream',
        title: 'Candle stream',
        description: CANDLE_STREAM_DESCRIPTION(streamLimits),
        servers: [ref('servers/gateway')],
        messages: {
          snapshot: ref('components/messages/candleSnapshot'),
          candle: ref('components/messages/candle'),
          gap: ref('components/messages/candleGap'),
          heartbeat: ref('components/messages/heartbeat'),
        },
        bindings: {
          ws: {
            method: 'GET',
            query: {
              type: 'object',
              properties: {
                pairs: {
                  type: 'string',
                  description:
                    'Comma-separated pair symbols (or their legacy spellings, such as SPX-USD). Missing, empty, repeated, or naming an unlisted symbol: 400.',
                  examples: ['BTC-USD,ETH-USD'],
                },
                resolution: {
                  type: 'string',
                  enum: ['1', '5', '15', '60', '240', '1D', 'D'],
                  description:
                    "The candles' width, as `POST /v1/ohlc` and the UDF routes take it (`D` is `1D`). Missing, repeated or another value: 400.",
                },
                heartbeat: {
                  type: 'string',
                  pattern: '^[1-9][0-9]?$',
                  description:
                    'Whole seconds from 1 to 60: after that long with nothing sent, a `heartbeat` frame. Out of range, not a whole number, or repeated: 400.',
                },
              },
              required: ['pairs', 'resolution'],
              additionalProperties: false,
            },
            bindingVersion: '0.1.0',
          },
          http: {
            method: 'GET',
            description:
              "Server-Sent Events (`Accept: text/event-stream`, answered `200` with `Content-Type: text/event-stream`): every event is `event: <type>` and `data: <the frame>`; the query is the WebSocket's.",
            bindingVersion: '0.3.0',
          },
        },
      },
      priceTicks: {
        address: busAddresses.tickSubject,
        title: 'Price ticks',
        description: TICKS_DESCRIPTION(busAddresses),
        servers: [ref('servers/bus')],
        parameters: TICK_SUBJECT_PARAMETERS,
        messages: { priceRow: ref('components/messages/priceRow') },
      },
      numberedTicks: {
        address: busAddresses.numberedTickSubject,
        title: 'Price ticks with their positions',
        description: NUMBERED_TICKS_DESCRIPTION(busAddresses),
        servers: [ref('servers/bus')],
        parameters: TICK_SUBJECT_PARAMETERS,
        messages: { priceRow: ref('components/messages/priceRow') },
      },
      latestPrices: {
        address: `$KV.${busAddresses.latestPricesBucket}.{pair}`,
        title: 'Latest price per pair',
        description: LATEST_DESCRIPTION(busAddresses),
        servers: [ref('servers/bus')],
        parameters: { pair: { description: 'Pair symbol: the key in the bucket', examples: ['BTC-USD'] } },
        messages: { priceRow: ref('components/messages/priceRow') },
      },
    },
    operations: {
      sendPriceFrames: {
        action: 'send',
        title: 'Send the snapshot, ticks and gaps',
        channel: ref('channels/priceStream'),
        messages: [
          ref('channels/priceStream/messages/snapshot'),
          ref('channels/priceStream/messages/tick'),
          ref('channels/priceStream/messages/gap'),
          ref('channels/priceStream/messages/snapshotWithCursor'),
          ref('channels/priceStream/messages/tickWithCursor'),
          ref('channels/priceStream/messages/gapWithCursor'),
          ref('channels/priceStream/messages/resumed'),
          ref('channels/priceStream/messages/compactSnapshot'),
          ref('channels/priceStream/messages/compactSnapshotWithCursor'),
          ref('channels/priceStream/messages/static'),
          ref('channels/priceStream/messages/compactTick'),
          ref('channels/priceStream/messages/compactTickWithCursor'),
          ref('channels/priceStream/messages/heartbeat'),
          ref('channels/priceStream/messages/heartbeatWithCursor'),
          ref('channels/priceStream/messages/batch'),
        ],
      },
      sendCandleFrames: {
        action: 'send',
        title: 'Send the snapshot, candles, gaps and heartbeats',
        channel: ref('channels/candleStream'),
        messages: [
          ref('channels/candleStream/messages/snapshot'),
          ref('channels/candleStream/messages/candle'),
          ref('channels/candleStream/messages/gap'),
          ref('channels/candleStream/messages/heartbeat'),
        ],
      },
      receiveFilterChange: {
        action: 'receive',
        title: 'Receive subscribe and unsubscribe; reply with ack or error',
        channel: ref('channels/priceStream'),
        messages: [ref('channels/priceStream/messages/filterChange')],
        reply: {
          channel: ref('channels/priceStream'),
          messages: [ref('channels/priceStream/messages/ack'), ref('channels/priceStream/messages/error')],
        },
      },
      publishTick: {
        action: 'send',
        title: 'Publish every tick (ingestor)',
        channel: ref('channels/priceTicks'),
        messages: [ref('channels/priceTicks/messages/priceRow')],
      },
      republishTick: {
        action: 'send',
        title: 'Republish every stored tick with its position (the tick stream)',
        channel: ref('channels/numberedTicks'),
        messages: [ref('channels/numberedTicks/messages/priceRow')],
      },
      storeLatestPrice: {
        action: 'send',
        title: 'Keep the latest row per pair (ingestor)',
        channel: ref('channels/latestPrices'),
        messages: [ref('channels/latestPrices/messages/priceRow')],
      },
    },
    components: {
      schemas: componentSchemas(),
      messages: {
        snapshot: streamMessage('snapshot', 'Snapshot (first frame)', 'SnapshotFrame', {
          type: 'snapshot',
          seq: { 'BTC-USD': 1042, 'AAPL-USD': 77 },
          data: [priceRowExample, stockRowExample],
        }),
        tick: streamMessage('tick', 'Tick', 'TickFrame', { type: 'tick', seq: 1043, data: priceRowExample }),
        gap: streamMessage('gap', 'Gap: ticks dropped for this connection', 'GapFrame', { type: 'gap', dropped: 12 }),
        snapshotWithCursor: streamMessage(
          'snapshotWithCursor',
          'Snapshot with its cursor (opted in, and every event)',
          'SnapshotFrameWithCursor',
          {
            type: 'snapshot',
            seq: { 'BTC-USD': 1042, 'AAPL-USD': 77 },
            data: [priceRowExample, stockRowExample],
            cursor: 'mwysrltn-310',
          },
        ),
        tickWithCursor: streamMessage('tickWithCursor', 'Tick with its cursor (opted in, and every event)', 'TickFrameWithCursor', {
          type: 'tick',
          seq: 1043,
          data: priceRowExample,
          cursor: 'mwysrltn-311',
        }),
        gapWithCursor: streamMessage('gapWithCursor', 'Gap with the cursor of the latest tick sent before it', 'GapFrameWithCursor', {
          type: 'gap',
          dropped: 12,
          cursor: 'mwysrltn-340',
        }),
        resumed: streamMessage('resumed', 'Resumed: the first frame after `?from=` or `Last-Event-ID`', 'ResumedFrame', {
          type: 'resumed',
          recovered: true,
          cursor: 'mwysrltn-311',
        }),
        compactSnapshot: streamMessage('compactSnapshot', 'Snapshot of a connection of compact frames', 'CompactSnapshotFrame', {
          type: 'snapshot',
          seq: { 'BTC-USD': 1042, 'AAPL-USD': 77 },
          data: [priceRowExample, stockRowExample],
          ids: [pairIdOf(priceRowExample), pairIdOf(stockRowExample)],
        }),
        compactSnapshotWithCursor: streamMessage(
          'compactSnapshotWithCursor',
          'Snapshot of compact frames with its cursor',
          'CompactSnapshotFrameWithCursor',
          {
            type: 'snapshot',
            seq: { 'BTC-USD': 1042, 'AAPL-USD': 77 },
            data: [priceRowExample, stockRowExample],
            ids: [pairIdOf(priceRowExample), pairIdOf(stockRowExample)],
            cursor: 'mwysrltn-310',
          },
        ),
        static: streamMessage('static', "A pair's static part (compact frames)", 'StaticFrame', {
          type: 'static',
          p: pairIdOf(priceRowExample),
          data: staticPartOf(priceRowExample),
        }),
        compactTick: streamMessage('compactTick', 'Compact tick', 'CompactTickFrame', compactTickOf(priceRowExample, 1043)),
        compactTickWithCursor: streamMessage(
          'compactTickWithCursor',
          'Compact tick with its cursor (opted in, and every event)',
          'CompactTickFrameWithCursor',
          { ...compactTickOf(priceRowExample, 1043), cursor: 'mwysrltn-311' },
        ),
        heartbeat: streamMessage('heartbeat', 'Heartbeat: nothing else was sent for `?heartbeat=` seconds', 'HeartbeatFrame', {
          type: 'heartbeat',
          time: 1790000000000,
        }),
        heartbeatWithCursor: streamMessage(
          'heartbeatWithCursor',
          'Heartbeat with the cursor of the latest tick sent (opted in, and every event)',
          'HeartbeatFrameWithCursor',
          { type: 'heartbeat', time: 1790000000000, cursor: 'mwysrltn-340' },
        ),
        batch: streamMessage('batch', "A window's frames, or ticks sent together, in one frame (`?batch=true`)", 'BatchFrame', {
          type: 'batch',
          frames: [
            { type: 'tick', seq: 1043, data: priceRowExample, cursor: 'mwysrltn-311' },
            { type: 'tick', seq: 80, data: stockRowExample, cursor: 'mwysrltn-314' },
          ],
        }),
        ack: streamMessage('ack', 'Acknowledgement of a filter change', 'AckFrame', { type: 'ack', for: 'subscribe', pairCount: 3 }),
        error: streamMessage('error', 'Refusal of a client message', 'ErrorFrame', {
          type: 'error',
          code: 'invalid_pairs',
          message: 'unknown pair symbols: DOGE-USD; symbols look like BTC-USD',
        }),
        filterChange: streamMessage('filterChange', 'Subscribe or unsubscribe (client)', 'ClientMessage', {
          type: 'subscribe',
          pairs: ['XAU-USD'],
        }),
        candleSnapshot: streamMessage('snapshot', 'Candle snapshot (first frame)', 'CandleSnapshotFrame', {
          type: 'snapshot',
          data: [
            { ...candleExample, time: candleExample.time - 60_000, closed: true },
            { ...candleExample, closed: false },
          ],
        }),
        candle: streamMessage('candle', 'Candle, forming or closed', 'CandleFrame', {
          type: 'candle',
          data: { ...candleExample, closed: true },
        }),
        candleGap: streamMessage('gap', 'Gap: candle frames dropped for this connection', 'GapFrame', { type: 'gap', dropped: 3 }),
        priceRow: {
          name: 'priceRow',
          title: 'Price row',
          contentType: 'application/json',
          payload: ref('components/schemas/PriceRow'),
          examples: [{ payload: priceRowExample }],
        },
      },
    },
  }
}
