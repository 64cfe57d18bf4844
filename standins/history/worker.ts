// The History API stand-in on a thread of its own (the embedded default's): working out a long range of
// bars takes the stand-in's CPU, which must not hold up the edge's event loop in the same process (see
// ../worker-thread.ts).

import { parentPort, workerData } from 'node:worker_threads'
import { startHistoryStandin } from './server.ts'

const standin = await startHistoryStandin({ anchorMs: (workerData as { anchorMs: number }).anchorMs })
parentPort!.postMessage({ url: standin.channelUrl() })
parentPort!.once('message', () => void standin.close().then(() => process.exit(0)))
