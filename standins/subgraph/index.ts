// A stand-in for the venue's indexed data source (a The Graph subgraph): a real GraphQL server over
// HTTP with generated, deterministic data, one endpoint per chain, and switchable faults.

export { startIndexerStandin, subgraphPath, type IndexerStandin, type IndexerStandinOptions } from './server.ts'
export { FAULTS, LAG_SECONDS, type Fault } from './faults.ts'
export { DEFAULT_FIRST, MAX_FIRST, MAX_SKIP } from './collection-query.ts'
export { DEFAULT_SEED, seedData } from './seed/seed-data.ts'
export { SEED_HEAD_TIMESTAMP } from './seed/timeline.ts'
export { META_DATA_ID, VAULT_ID } from './seed/totals.ts'
export { DEMO_TRADER, WHALE_TRADER } from './seed/traders.ts'
export * from './rows.ts'
export type * from './entities.ts'
