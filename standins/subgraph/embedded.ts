import type { EmbeddedIndexedSource } from '../../services/indexer/config.ts'
import { startIndexerStandin } from './server.ts'

/** Starts the GraphQL stand-in for the embedded default (`npm start`, tests that run every role). */
export async function startEmbeddedIndexer(): Promise<EmbeddedIndexedSource> {
  const standin = await startIndexerStandin()
  return {
    urls: { 42161: standin.url(42161), 421614: standin.url(421614) },
    close: () => standin.close(),
  }
}
