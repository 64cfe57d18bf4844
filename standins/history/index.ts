// A stand-in for Pyth Pro's History API (TradingView UDF over HTTP) with generated, deterministic bars
// that join the price simulator's starting mids, and switchable faults.

export { startHistoryStandin, type HistoryRequest, type HistoryStandin, type HistoryStandinOptions } from './server.ts'
export { FAULTS, UDF_ERROR_MESSAGE, type Fault } from './faults.ts'
export { CHANNELS, HISTORY_FEEDS, type Channel } from './catalog.ts'
export { DATA_STARTS_AT, RESOLUTIONS } from './bars.ts'
