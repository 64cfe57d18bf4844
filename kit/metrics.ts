import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client'
import { hotHistogram } from './hot-histogram.ts'
import { hotLabelledCounter } from './hot-labelled-counter.ts'

/** Every Prometheus metric of the process, named in one place and served at /metrics. */
export function createMetrics() {
  const registry = new Registry()
  collectDefaultMetrics({ register: registry })
  const registers = [registry]
  return {
    registry,
    ticksIngested: hotLabelledCounter({
      name: 'venue_ticks_ingested_total',
      help: 'Upstream quotes normalised and published to the bus',
      labelNames: ['source'],
      registry,
    }),
    ticksDropped: new Counter({
      name: 'venue_ticks_dropped_total',
      help: 'Upstream data dropped before publishing, by reason',
      labelNames: ['source', 'reason'],
      registers,
    }),
    hermesHttpErrors: new Counter({
      name: 'venue_hermes_http_errors_total',
      help: 'Non-2xx answers from Hermes, by endpoint (stream, price_feeds) and status',
      labelNames: ['endpoint', 'status'],
      registers,
    }),
    hermesAuthRefused: new Gauge({
      name: 'venue_hermes_auth_refused',
      help: 'Hermes refused the API key (401/403) on the latest request: 1, else 0',
      registers,
    }),
    hermesErrorEvents: new Counter({
      name: 'venue_hermes_error_events_total',
      help: 'Error events on the Hermes stream, by kind (connection_timeout, slow_consumer, message_not_found, receive_error, other)',
      labelNames: ['kind'],
      registers,
    }),
    hermesRepeatsSuppressed: new Counter({
      name: 'venue_hermes_repeats_suppressed_total',
      help: "Hermes entries not published because they repeat their feed's previous price, confidence and publish time",
      registers,
    }),
    hermesUnknownFeedIds: new Gauge({
      name: 'venue_hermes_unknown_feed_ids',
      help: 'Configured feed ids Hermes does not know (their pairs get no prices)',
      registers,
    }),
    ticksReceived: hotLabelledCounter({
      name: 'venue_ticks_received_total',
      help: 'Ticks received from the bus by the snapshot materializer',
      labelNames: [],
      registry,
    }),
    pricedPairs: new Gauge({ name: 'venue_priced_pairs', help: 'Pairs with a price in the snapshot', registers }),
    busConnected: new Gauge({ name: 'venue_bus_connected', help: '1 while the bus is reachable', registers }),
    feedDegraded: new Gauge({
      name: 'venue_feed_degraded',
      help: "1 while this edge's /v1/status says degraded (no tick yet, quiet past the staleness window, or the bus down); sampled every second",
      registers,
    }),
    feedLastTick: new Gauge({
      name: 'venue_feed_last_tick_timestamp_seconds',
      help: 'When the last tick reached this edge (Unix seconds; 0 before the first); sampled every second',
      registers,
    }),
    httpRequests: hotLabelledCounter({
      name: 'venue_http_requests_total',
      help: 'HTTP responses by route and status',
      labelNames: ['route', 'status'],
      registry,
    }),
    httpDuration: hotHistogram({
      name: 'venue_http_request_duration_seconds',
      help: 'Time from request to response',
      labelName: 'route',
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registry,
    }),
    httpCompressions: new Counter({
      name: 'venue_http_compressions_total',
      help: 'Response bodies compressed, by coding (once per content and coding, never per request)',
      labelNames: ['coding'],
      registers,
    }),
    candleTicks: hotLabelledCounter({
      name: 'venue_candle_ticks_total',
      help: 'Ticks received by the candle writer, by outcome (folded, malformed, unlisted_pair)',
      labelNames: ['outcome'],
      registry,
    }),
    candleWriteFailures: new Counter({
      name: 'venue_candle_write_failures_total',
      help: "Merges of one pair's candles into the candle store that failed (retried on the next flush)",
      registers,
    }),
    historyCalls: new Counter({
      name: 'venue_history_calls_total',
      help: 'Calls to the candle history source, by outcome (ok, no_data, timeout, network_error, http_error, invalid_response, source_error)',
      labelNames: ['outcome'],
      registers,
    }),
    historyCallDuration: new Histogram({
      name: 'venue_history_call_duration_seconds',
      help: 'Time from a call to the candle history source to its answer (or failure)',
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10],
      registers,
    }),
    historySharedCalls: new Counter({
      name: 'venue_history_shared_calls_total',
      help: 'History fetches answered by a call another request made, by where it was made (replica: this process, cluster: another replica)',
      labelNames: ['from'],
      registers,
    }),
    historyBudgetRefusals: new Counter({
      name: 'venue_history_budget_refusals_total',
      help: 'History calls not made because the call budget was spent, by priority (request: answered 503, background: retried later)',
      labelNames: ['priority'],
      registers,
    }),
    historyBars: new Counter({
      name: 'venue_history_bars_total',
      help: 'Bars taken from the candle history source, by resolution and use (stored; proxied: older than the store keeps)',
      labelNames: ['resolution', 'use'],
      registers,
    }),
    rateLimited: new Counter({
      name: 'venue_rate_limited_total',
      help: 'Requests refused with 429, by budget',
      labelNames: ['budget'],
      registers,
    }),
    streamConnections: new Gauge({ name: 'venue_stream_connections', help: 'Open price-stream connections', registers }),
    streamRateConnections: new Gauge({
      name: 'venue_stream_rate_connections',
      help: 'Open price-stream connections (WebSocket and Server-Sent Events) by rate: real_time or fixed_rate@<n>ms',
      labelNames: ['rate'],
      registers,
    }),
    streamHeartbeatConnections: new Gauge({
      name: 'venue_stream_heartbeat_connections',
      help: 'Open price-stream connections that asked for heartbeats (?heartbeat=)',
      registers,
    }),
    streamLaggingConnections: new Gauge({
      name: 'venue_stream_lagging_connections',
      help: 'Stream connections whose ticks are being dropped because too much is buffered for them',
      registers,
    }),
    streamBufferedBytes: new Gauge({
      name: 'venue_stream_buffered_bytes',
      help: 'Bytes waiting in the server for stream clients, sampled every second',
      registers,
    }),
    streamFrames: hotLabelledCounter({
      name: 'venue_stream_frames_total',
      help: 'Frames sent to stream clients (one per frame per client), by type and by the rate the clients asked for (real_time, fixed_rate@<n>ms)',
      labelNames: ['type', 'rate'],
      registry,
    }),
    streamDroppedTicks: new Counter({
      name: 'venue_stream_dropped_ticks_total',
      help: 'Ticks stream clients were told they missed, summed over the gap frames sent',
      registers,
    }),
    streamMalformedRows: new Counter({
      name: 'venue_stream_malformed_rows_total',
      help: "Ticks whose row is not a price row, which compact connections received with their pair's previous values",
      registers,
    }),
    streamConflatedTicks: new Counter({
      name: 'venue_stream_conflated_ticks_total',
      help: 'Ticks superseded by a newer row of their pair before fan-out, while the process was behind',
      registers,
    }),
    streamResumes: new Counter({
      name: 'venue_stream_resumes_total',
      help: 'Resumes from a cursor, by outcome: recovered, or refused as outside_window, other_epoch or edge_behind (this edge had not reached the cursor in time)',
      labelNames: ['outcome'],
      registers,
    }),
    streamRejectedUpgrades: new Counter({
      name: 'venue_stream_rejected_upgrades_total',
      help: 'Stream upgrades refused, by reason',
      labelNames: ['reason'],
      registers,
    }),
    streamHeartbeatTerminations: new Counter({
      name: 'venue_stream_heartbeat_terminations_total',
      help: 'Stream connections terminated for not answering a ping',
      registers,
    }),
    candleStreamConnections: new Gauge({
      name: 'venue_candle_stream_connections',
      help: 'Open candle-stream connections (WebSocket and Server-Sent Events)',
      registers,
    }),
    candleStreamFrames: new Counter({
      name: 'venue_candle_stream_frames_total',
      help: 'Frames sent to candle-stream clients (one per frame per client), by type: snapshot, candle, gap, heartbeat',
      labelNames: ['type'],
      registers,
    }),
    candleStreamDroppedFrames: new Counter({
      name: 'venue_candle_stream_dropped_frames_total',
      help: 'Candle frames candle-stream clients were told they missed, summed over the gap frames sent',
      registers,
    }),
    candleStreamRejectedUpgrades: new Counter({
      name: 'venue_candle_stream_rejected_upgrades_total',
      help: 'Candle-stream upgrades and event streams refused, by reason',
      labelNames: ['reason'],
      registers,
    }),
    jobQueueDepth: new Gauge({
      name: 'venue_job_queue_depth',
      help: 'Jobs per queue and state (waiting, active, delayed, completed, failed), sampled',
      labelNames: ['queue', 'state'],
      registers,
    }),
    relayOutcomes: new Counter({
      name: 'venue_relay_outcomes_total',
      help: 'Onboarding relays by chain and outcome: confirmed, reverted (on chain), rejected (by simulation), refused (by the sponsorship policy)',
      labelNames: ['chain', 'outcome'],
      registers,
    }),
    sponsorshipRefusals: new Counter({
      name: 'venue_sponsorship_refusals_total',
      help: 'Onboardings the sponsorship policy did not pay for, by chain and reason: partner_daily_onboardings, daily_gas, operation_gas, already_applied',
      labelNames: ['chain', 'reason'],
      registers,
    }),
    relayErrors: new Counter({
      name: 'venue_relay_errors_total',
      help: 'Failed relay attempts by chain and kind: transient (retried) or permanent',
      labelNames: ['chain', 'kind'],
      registers,
    }),
    relayDuration: new Histogram({
      name: 'venue_relay_duration_seconds',
      help: 'Time from the start of a relay attempt to its outcome',
      labelNames: ['chain'],
      buckets: [0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60],
      registers,
    }),
    indexerRequests: new Counter({
      name: 'venue_indexer_requests_total',
      help: 'Requests to the indexed data source, by chain and outcome (ok, timeout, network_error, http_error, graphql_errors, invalid_response)',
      labelNames: ['chain', 'outcome'],
      registers,
    }),
    indexerUp: new Gauge({
      name: 'venue_indexer_up',
      help: "1 when the chain's indexed data source answered its last request, 0 when that request failed",
      labelNames: ['chain'],
      registers,
    }),
    indexerLag: new Gauge({
      name: 'venue_indexer_lag_seconds',
      help: "How far the chain's indexed data source is behind, from the block timestamp in its last answer's _meta",
      labelNames: ['chain'],
      registers,
    }),
    indexerRecordsSkipped: new Counter({
      name: 'venue_indexer_records_skipped_total',
      help: 'Records of the indexed data source left out of an answer because a field they need was missing or malformed, by chain, entity and field',
      labelNames: ['chain', 'entity', 'field'],
      registers,
    }),
    indexerFieldsMissing: new Gauge({
      name: 'venue_indexer_fields_missing',
      help: "1 for each field (Type.field) the service selects that the chain's subgraph deployment lacks; reads go on without it",
      labelNames: ['chain', 'field'],
      registers,
    }),
    subgraphDoorRequests: new Counter({
      name: 'venue_subgraph_door_requests_total',
      help: 'Requests to the GraphQL door, by chain and outcome (forwarded, cached, refused, failed)',
      labelNames: ['chain', 'outcome'],
      registers,
    }),
    subgraphDoorRefusals: new Counter({
      name: 'venue_subgraph_door_refusals_total',
      help: 'Requests the GraphQL door did not forward, by chain and reason (body_size, malformed, query_length, syntax, depth, aliases, rows, unanalysable)',
      labelNames: ['chain', 'reason'],
      registers,
    }),
    subgraphDoorUpstreamFailures: new Counter({
      name: 'venue_subgraph_door_upstream_failures_total',
      help: 'Door requests the subgraph did not answer, by chain and kind (timeout, network_error, http_error, invalid_schema)',
      labelNames: ['chain', 'kind'],
      registers,
    }),
  }
}

export type Metrics = ReturnType<typeof createMetrics>
