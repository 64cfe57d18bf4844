export type { components, operations, paths } from './api-types.ts'
export { PriceStreamClient, SILENT_CLOSE_CODE, StreamRequestError } from './price-stream-client.ts'
export type {
  Loss,
  OpenSocket,
  PriceStreamClientOptions,
  PriceStreamEvents,
  Refusal,
  StreamRate,
  StreamSocket,
} from './price-stream-client.ts'
export { createRestClient, type RestClient } from './rest-client.ts'
export { subscribeBars, type Bar, type SubscribeBarsOptions } from './subscribe-bars.ts'
export type * from './stream-frames.ts'
