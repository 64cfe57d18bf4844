import type { EmbeddedHistorySource } from '../../services/candles/history/history-config.ts'
import { startStandinWorker } from '../worker-thread.ts'

/**
 * Starts the History API stand-in for the embedded default (`npm start`), on a worker thread: its walks pass
 * through the simulator's starting mids at `anchorMs`, the moment the simulator started, so history joins
 * the live prices.
 */
export async function startEmbeddedHistory(anchorMs: number): Promise<EmbeddedHistorySource> {
  const worker = await startStandinWorker<{ url: string }>(new URL('./worker.ts', import.meta.url), { anchorMs })
  return { url: worker.started.url, anchoredAt: anchorMs, close: worker.close }
}
