// The GraphQL stand-in on a thread of its own (the embedded default's; see ../worker-thread.ts).
import { parentPort } from 'node:worker_threads'
import { startIndexerStandin } from './server.ts'

const standin = await startIndexerStandin()
parentPort!.postMessage({ urls: { 42161: standin.url(42161), 421614: standin.url(421614) } })
parentPort!.once('message', () => void standin.close().then(() => process.exit(0)))
