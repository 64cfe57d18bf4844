import type { EmbeddedIndexedSource, IndexerUrls } from '../../services/indexer/config.ts'
import { startStandinWorker } from '../worker-thread.ts'

/**
 * Starts the GraphQL stand-in for the embedded default (`npm start`) on a worker thread: building its schema
 * and seed rows does not hold up the prices served from the same process.
 */
export async function startEmbeddedIndexer(): Promise<EmbeddedIndexedSource> {
  const worker = await startStandinWorker<{ urls: IndexerUrls }>(new URL('./worker.ts', import.meta.url), {})
  return { urls: worker.started.urls, close: worker.close }
}
