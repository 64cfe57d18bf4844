import { once } from 'node:events'
import { Worker } from 'node:worker_threads'

export interface StandinWorker<Started> {
  /** what the worker posted once its server was up */
  started: Started
  close(): Promise<void>
}

/**
 * Runs a stand-in's `worker.ts` on a thread of its own, so that loading it and answering its requests never
 * hold up the event loop of the service in the same process (the embedded default's). The worker registers tsx
 * first, to load the stand-in's TypeScript as this process does; it posts one message once its server is up,
 * and ends its server and itself on any message back.
 */
export async function startStandinWorker<Started>(script: URL, workerData: unknown): Promise<StandinWorker<Started>> {
  const boot = `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(script.href)}) })`
  const worker = new Worker(boot, { eval: true, workerData })
  const [started] = (await Promise.race([
    once(worker, 'message'),
    once(worker, 'error').then(([error]) => Promise.reject(error as Error)),
  ])) as [Started]
  return {
    started,
    async close() {
      worker.postMessage('close')
      await once(worker, 'exit')
    },
  }
}
