import { z } from 'zod'
import { envInt, envOptionalUrl, parseEnv, type Env } from '../../kit/env-parsing.ts'
import type { ChainId } from '../../schemas/common.ts'

/** The subgraph endpoint of each supported chain. */
export type IndexerUrls = Record<ChainId, string>

export interface IndexerConfig {
  /** undefined when no INDEXER_URL_* is set: only the embedded default (a starter handed in) runs so */
  urls: IndexerUrls | undefined
  /** an upstream request that has not answered in full by then fails (502) */
  timeoutMs: number
  /** how long an answer is reused for identical reads */
  cacheMs: number
}

const subgraphUrl = (chain: string) =>
  envOptionalUrl.describe(`the subgraph's GraphQL URL on ${chain}; set both chains' or neither (the embedded stand-in, \`npm start\` only)`)

export const IndexerEnv = z
  .object({
    INDEXER_URL_42161: subgraphUrl('Arbitrum One'),
    INDEXER_URL_421614: subgraphUrl('Arbitrum Sepolia'),
    INDEXER_TIMEOUT_MS: envInt(5000)
      .pipe(z.number().int().positive())
      .describe('an indexed-source request not answered in full by then is a 502'),
    INDEXER_CACHE_MS: envInt(2000).pipe(z.number().int().nonnegative()).describe('how long identical reads share one answer'),
  })
  .refine((env) => (env.INDEXER_URL_42161 === undefined) === (env.INDEXER_URL_421614 === undefined), {
    message: 'set INDEXER_URL_42161 and INDEXER_URL_421614 together, or neither (embedded stand-in, npm start only)',
    path: ['INDEXER_URL_421614'],
  })

export function indexerConfig(env: Env): IndexerConfig {
  const parsed = parseEnv(IndexerEnv, env, 'indexer')
  const { INDEXER_URL_42161: mainnet, INDEXER_URL_421614: testnet } = parsed
  return {
    urls: mainnet && testnet ? { 42161: mainnet, 421614: testnet } : undefined,
    timeoutMs: parsed.INDEXER_TIMEOUT_MS,
    cacheMs: parsed.INDEXER_CACHE_MS,
  }
}

/** An indexed source started by this process for the embedded default, and how to stop it. */
export interface EmbeddedIndexedSource {
  urls: IndexerUrls
  close(): Promise<void>
}

/**
 * Starts a stand-in indexed source for the embedded default (`npm start` passes the GraphQL stand-in's
 * starter from standins/). Production entry points pass none: there the subgraph URLs are configuration.
 */
export type EmbeddedIndexerStarter = () => Promise<EmbeddedIndexedSource>

export const NO_INDEXED_SOURCE =
  'invalid configuration for indexer: no indexed source configured (set INDEXER_URL_42161 and INDEXER_URL_421614)'
